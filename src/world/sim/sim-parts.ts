import type { Clock } from '../../contracts/clock.js';
import type { Body } from './body.js';
import type { EntityStore } from './entity-store.js';
import type { BlockGrid } from './grid.js';
import type { Locomotion } from './locomotion.js';
import type { SimMobs } from './mob-life.js';
import type { Terrain } from './terrain.js';

/** The pieces of a sim world that its actuators act on. */
export interface SimParts {
  readonly clock: Clock;
  readonly grid: BlockGrid;
  readonly terrain: Terrain;
  readonly body: Body;
  readonly entities: EntityStore;
  readonly locomotion: Locomotion;
  /** The mobs living by the game's rules: a hit turns a hostile one on the bot. */
  readonly mobs: SimMobs;
  /** Block names no tool can break in this world, beyond vanilla's unbreakable ones. */
  readonly unbreakable: ReadonlySet<string>;
}
