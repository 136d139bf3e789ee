import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Clock } from '../../contracts/clock.js';
import type { Vec3Like } from '../../contracts/world.js';
import type { ServerTruth } from './server-truth.js';

/** What observations, commands and effect confirmation share about one bot. */
export interface BotContext {
  readonly bot: Bot;
  readonly clock: Clock;
  /** When set, reads go to the server rather than the client's prediction. */
  readonly serverTruth: ServerTruth | null;
  /** How long to wait for the server to confirm an effect the client predicted. */
  readonly confirmTimeoutMs: number;
}

export function toVec3(position: Vec3Like): Vec3 {
  return new Vec3(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z));
}
