import type { Clock } from '../../contracts/clock.js';
import type { Death, PathStatus, Vec3Like } from '../../contracts/world.js';
import { deriveSeed, mulberry32 } from '../../random.js';
import { EXHAUSTION_PER_JUMP } from '../health-rules.js';
import { describeHazardAt } from '../hazards.js';
import type { NightSpawning } from '../mob-rules/index.js';
import type { Terrain as GeneratedTerrain } from '../terrain/survival-terrain.js';
import { ActuatorLedger } from './actuator-ledger.js';
import { ActuatorRunner } from './actuator-runner.js';
import { Body } from './body.js';
import { Breath } from './breath.js';
import { WALK_STEP_MS } from './constants.js';
import { DayClock } from './day-clock.js';
import { SimDeath } from './death.js';
import { EntityStore, type SpawnEntity } from './entity-store.js';
import { BlockGrid, DEFAULT_GROUND, type GroundOptions } from './grid.js';
import { HazardDamage } from './hazard-damage.js';
import { Locomotion } from './locomotion.js';
import { Regeneration } from './regeneration.js';
import { SimMobs } from './mob-life.js';
import type { SimParts } from './sim-parts.js';
import { Terrain } from './terrain.js';

export interface SimWorldOptions {
  clock: Clock;
  /** Seeds `random`, which scenarios use to lay out the world. */
  seed?: number;
  /** The cell the bot's feet start in. Default 0,0,0 (standing on the default ground). */
  spawn?: Vec3Like;
  /** The generated ground; null for none (a void with only explicit blocks). */
  ground?: Partial<GroundOptions> | null;
  /** Generated terrain (a survival world from a seed) as the ground, instead of `ground`'s flat slab. */
  terrain?: GeneratedTerrain;
  blocks?: readonly { position: Vec3Like; name: string }[];
  entities?: readonly SpawnEntity[];
  inventory?: Record<string, number>;
  heldItem?: string | null;
  health?: number;
  food?: number;
  /** Spent before food as the body exerts itself or heals (default vanilla's 5 at spawn, never above `food`). */
  saturation?: number;
  /** Extra block names no tool can break here (bedrock and barrier never break). */
  unbreakable?: readonly string[];
  walkSpeed?: number;
  /** Cells A* may explore before giving up with `timeout`. */
  maxSearchNodes?: number;
  /** Keep `actuatorLog` (default true); benches with many steps turn it off. */
  recordActuatorLog?: boolean;
  /** Ticks into the day at the start (default 1000, morning); with `daylightCycle` it runs on the clock. */
  timeOfDay?: number;
  daylightCycle?: boolean;
  /** Hostile mobs spawn at night around the bot (a scenario's `spawnAtNight`); off by default. */
  spawnAtNight?: NightSpawning;
  /** Vanilla's game rule: a death keeps the pack instead of dropping it where the bot died (default false). */
  keepInventory?: boolean;
}

/** What the assembled parts call back into the world for: its health setter (which emits 'hurt'), its events. */
export interface SimWorldHooks {
  /** `cause`: what hurt the bot (a mob's name, the hazard, drowning), kept for its death. */
  readonly setHealth: (health: number, cause?: string) => void;
  readonly emitPath: (status: PathStatus) => void;
  readonly afterMove: () => void;
  readonly teleport: (cell: Vec3Like) => void;
  readonly died: (death: Death) => void;
}

/** A SimWorld's parts, wired to each other and to the world's hooks, before the bot is placed in them. */
export interface SimAssembly {
  grid: BlockGrid;
  ledger: ActuatorLedger;
  runner: ActuatorRunner;
  body: Body;
  entityStore: EntityStore;
  day: DayClock;
  mobs: SimMobs;
  hazardDamage: HazardDamage;
  breath: Breath;
  regeneration: Regeneration;
  locomotion: Locomotion;
  death: SimDeath;
  parts: SimParts;
}

export function assembleSim(options: SimWorldOptions, hooks: SimWorldHooks): SimAssembly {
  const { clock } = options;
  const ledger = new ActuatorLedger(options.recordActuatorLog ?? true);
  const runner = new ActuatorRunner(clock, ledger);
  const entityStore = new EntityStore();
  const day = new DayClock(clock, options.timeOfDay ?? 1000, options.daylightCycle ?? false);
  const grid = new BlockGrid(
    options.ground === null ? null : { ...DEFAULT_GROUND, ...options.ground },
    options.terrain ?? null,
  );
  const terrain = new Terrain(grid);
  const body = new Body((x, y, z) => terrain.feetHeight(x, y, z));
  const mobs = new SimMobs({
    clock,
    grid,
    body,
    entities: entityStore,
    day,
    // A stream of its own, so mobs never change what a scenario drew from `random`.
    random: mulberry32(deriveSeed(options.seed ?? 1, 'mobs')),
    lootRandom: mulberry32(deriveSeed(options.seed ?? 1, 'loot')),
    spawning: options.spawnAtNight ?? null,
    terrain,
    unbreakable: new Set(options.unbreakable ?? []),
    hurtBot: (damage, by) => hooks.setHealth(body.health - damage, by),
    blocksChanged: () => locomotion.fall(),
  });
  const hazardAt = (position: Vec3Like) => ({ name: grid.get(position.x, position.y, position.z) });
  const hazardDamage = new HazardDamage(clock, grid, body, (health) =>
    hooks.setHealth(health, describeHazardAt(hazardAt, body.feet) ?? 'a hazard'),
  );
  const breath = new Breath(
    clock,
    grid,
    body,
    (health) => hooks.setHealth(health, 'drowning'),
    () => locomotion.float(),
  );
  const regeneration = new Regeneration(clock, body, (health) => hooks.setHealth(health));
  const locomotion = new Locomotion({
    clock,
    terrain,
    body,
    stepMs: options.walkSpeed === undefined ? WALK_STEP_MS : Math.round(1000 / options.walkSpeed),
    maxSearchNodes: options.maxSearchNodes ?? 10_000,
    emitPath: hooks.emitPath,
    afterMove: hooks.afterMove,
    jumped: () => regeneration.exhaust(EXHAUSTION_PER_JUMP),
  });
  const parts: SimParts = {
    clock,
    grid,
    terrain,
    body,
    entities: entityStore,
    locomotion,
    mobs,
    unbreakable: new Set(options.unbreakable ?? []),
  };
  const death = new SimDeath({
    clock,
    body,
    runner,
    entities: entityStore,
    spawn: options.spawn ?? { x: 0, y: 0, z: 0 },
    keepInventory: options.keepInventory ?? false,
    halt: () => locomotion.cancelJumps(),
    place: hooks.teleport,
    died: hooks.died,
  });
  return {
    grid,
    ledger,
    runner,
    body,
    entityStore,
    day,
    mobs,
    hazardDamage,
    breath,
    regeneration,
    locomotion,
    death,
    parts,
  };
}
