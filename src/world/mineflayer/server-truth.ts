import type { BlockState, LivingEntity, ObservationQuery, Vec3Like } from '../../contracts/world.js';

/** What a world can learn from the server itself (the embedded server provides it). */
export interface ServerTruth {
  blockAt(position: Vec3Like): Promise<string>;
  /** The block with the state using it changes (open, powered). Absent: the server cannot say. */
  blockStateAt?(position: Vec3Like): Promise<BlockState>;
  /**
   * What the container (chest, furnace) at a cell holds; null when none stands there. Absent: the server cannot say.
   */
  containerAt?(position: Vec3Like): Promise<Record<string, number> | null>;
  /** The living entities (mobs, players) a query asks for, as the server holds them. Absent: the server cannot say. */
  livingEntities?(query: NonNullable<ObservationQuery['entities']>, at: Vec3Like): Promise<LivingEntity[]>;
  /** The time of day in ticks (0 sunrise, 13000 night). Absent: the server cannot say. */
  timeOfDay?(): number;
  player(
    username: string,
  ): { position: Vec3Like; health: number; food: number; inventory: Record<string, number> } | null;
}
