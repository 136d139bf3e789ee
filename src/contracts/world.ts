import type { EventEmitter } from 'eventemitter3';
import type { FailureCode } from './failure-codes.js';
import type { Footing } from './stands-on.js';

export interface Vec3Like {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

/** Where a movement should end: on a block, within `range` of a point, or anywhere in a column. */
export type NavigationGoal =
  | { kind: 'block'; x: number; y: number; z: number }
  | { kind: 'near'; x: number; y: number; z: number; range: number }
  | { kind: 'xz'; x: number; z: number; range?: number };

export interface BlockInfo {
  name: string;
  position: Vec3Like;
  /** False for blocks no tool can break (bedrock, barrier, …). */
  diggable: boolean;
}

export type EntityKind = 'hostile' | 'passive' | 'player' | 'item' | 'other';

export interface EntityInfo {
  id: number;
  name: string;
  kind: EntityKind;
  position: Vec3Like;
  /** For dropped items: what lies on the ground. */
  item?: { name: string; count: number };
  /** A creeper's fuse is burning (it swells); absent for other kinds and while the world has not said. */
  swelling?: boolean;
  /**
   * A mob is after a target now (vanilla's mob flag "aggressive": a spider provoked by day is); absent while the
   * world has not said.
   */
  aggressive?: boolean;
  /**
   * A creeper's fuse: the ticks of it burnt so far (SwellGoal's swell, 0 to the fuse's length), where the world can
   * tell (SimWorld keeps it; a client sees only whether the creeper swells).
   */
  fuseTicks?: number;
}

/** A crafting recipe as the world knows it (minecraft-data for both worlds). */
export interface Recipe {
  item: string;
  /** How many items one craft yields. */
  yields: number;
  ingredients: Record<string, number>;
  needsTable: boolean;
}

/**
 * A snapshot of what a capability's acceptance needs. Plain data, so it can be
 * journaled as provenance and compared before/after.
 */
export interface Observation {
  at: number;
  position: Vec3Like;
  /** How the body rests (src/contracts/stands-on.ts): both worlds always report it; a `position` expectation needs it. */
  footing?: Footing;
  health: number;
  food: number;
  inventory: Record<string, number>;
  heldItem: string | null;
  /** Block names at the positions the observer asked for, keyed by `blockKey`. */
  blocks: Record<string, string>;
  /** Dropped items on the ground, present only when the observer asked for them (`ObservationQuery.drops`). */
  drops?: DroppedItem[];
  /**
   * The nearest block in the open of the names asked (`ObservationQuery.find`), as the world's truth
   * holds it; null when there is none within reach. Present only when asked.
   */
  found?: Vec3Like | null;
  /**
   * What each container asked for (`ObservationQuery.containers`) holds, keyed by `blockKey`: item counts
   * as the world's truth holds them; null when no container stands there. Present only when asked.
   */
  containers?: Record<string, Record<string, number> | null>;
  /**
   * The living entities asked for (`ObservationQuery.entities`: by id, or by name within a distance of
   * the bot), as the world's truth holds them; an entity that is dead or gone is not listed. Present only when asked.
   */
  entities?: LivingEntity[];
  /**
   * The time of day in ticks (0 sunrise, 6000 noon, 13000 night, 18000 midnight). Present only when asked
   * (`ObservationQuery.time`).
   */
  timeOfDay?: number;
  /**
   * The blocks asked for (`ObservationQuery.states`) with the state using them changes, keyed by `blockKey`,
   * as the world's truth holds them. Present only when asked.
   */
  states?: Record<string, BlockState>;
}

/**
 * A block and the part of its state that using it changes, which both worlds model alike: `open` for a door,
 * trapdoor or fence gate, `powered` for a lever; no properties for other blocks.
 */
export interface BlockState {
  name: string;
  properties: Record<string, boolean>;
}

/** An entity as an observation reports it: where it is and, for a mob or player, its health. */
export interface LivingEntity {
  id: number;
  name: string;
  position: Vec3Like;
  health: number | null;
}

/** A dropped item entity as the world's truth shows it. */
export interface DroppedItem {
  name: string;
  count: number;
  position: Vec3Like;
}

export interface ObservationQuery {
  blocks?: readonly Vec3Like[];
  /** Also report dropped items within `radius` of `around` (the bot when omitted). */
  drops?: { around?: Vec3Like; radius: number };
  /**
   * Also look for the nearest block of these names with a face in the open, within `within` of the bot;
   * with `contents`, also report in `containers` what it holds when it is a container (the nearest chest, say).
   */
  find?: { names: readonly string[]; within: number; contents?: boolean };
  /** Also report what the containers (chests, furnaces) at these cells hold. */
  containers?: readonly Vec3Like[];
  /** Also report the time of day (`timeOfDay`), as the world's truth holds it. */
  time?: boolean;
  /** Also report these entities, by id, and those of these names within `within` blocks of the bot. */
  entities?: { ids?: readonly number[]; names?: readonly string[]; within?: number };
  /** Also report the blocks at these cells with the state using them changes (`states`). */
  states?: readonly Vec3Like[];
}

/** The night a bed can be slept in, in ticks of the day (as mineflayer and the server agree on it). */
export const NIGHT_STARTS = 12_541;
export const NIGHT_ENDS = 23_458;

export function isNight(timeOfDay: number): boolean {
  return timeOfDay >= NIGHT_STARTS && timeOfDay <= NIGHT_ENDS;
}

export function blockKey(position: Vec3Like): string {
  return `${Math.floor(position.x)},${Math.floor(position.y)},${Math.floor(position.z)}`;
}

/** Every actuator takes a signal; when it fires the actuator must stop its effect on the world. */
export interface ActuatorOptions {
  signal?: AbortSignal;
}

/**
 * How a swing is made: `plain`; `critical` (jump and strike on the way down, 1.5 times the damage); `sprint` (strike
 * sprinting, knocking the mob back further; never critical).
 */
export type AttackStyle = 'plain' | 'critical' | 'sprint';

export interface AttackOptions extends ActuatorOptions {
  /** `plain` when absent. */
  style?: AttackStyle;
  /**
   * False: resolve as soon as the swing has landed, for a fighter that paces its own swings (and backs off between
   * them). True or absent: wait ATTACK_COOLDOWN_MS after it too.
   */
  recover?: boolean;
}

export type PathStatus = 'planned' | 'partial' | 'noPath' | 'timeout' | 'reached' | 'stopped';

/** A bot's death as its world saw it (issue 30): the executor ends the step it spans `died`, never ok. */
export interface Death {
  /** The health the bot had before the blow that killed it. */
  healthBefore: number;
  /** What hurt it last, when the world knows ("spider", "lava", "drowning"). */
  cause?: string;
  /** Where it died (it comes back at its spawn point). */
  position: Vec3Like;
}

export interface WorldEvents {
  /** `why`, when the world knows it, says what ruled a path out ("no way out of the water at 3,2,0: ..."). */
  path: (status: PathStatus, why?: string) => void;
  disconnected: (reason: string) => void;
  hurt: (health: number) => void;
  /** The bot's health reached 0: it is dead until it respawns, and every command in flight fails. */
  died: (death: Death) => void;
}

export type BodyPart = 'hand' | 'off-hand' | 'head' | 'torso' | 'legs' | 'feet';

export type UnstuckMove = 'jump' | 'back' | 'forward' | 'left' | 'right';

export interface BlockQuery {
  names: readonly string[];
  maxDistance: number;
  count: number;
  /**
   * Only blocks with a face open to a cell a body can occupy (air, water, plants):
   * the ones a bot sees and can dig without tunnelling. Buried ore and the stone
   * under the dirt are left out.
   */
  exposed?: boolean;
}

/**
 * The one interface between capabilities and a world. SimWorld and
 * MineflayerWorld implement it; capabilities see nothing else.
 * Reads are observations and never count as action; the async methods below
 * `--- actuators ---` are actuator commands.
 */
export interface WorldPort {
  readonly kind: string;
  readonly events: EventEmitter<WorldEvents>;
  isConnected(): boolean;
  /**
   * True while the connection is down and the world is joining its server again (a bot that rejoins after a server
   * restart): a step waits for it within its deadline. Absent or false, a world that is down stays down.
   */
  reconnecting?(): boolean;

  // --- observations ---
  /** Cheap, synchronous: read every tick by the stuck detectors. */
  position(): Vec3Like;
  health(): number;
  food(): number;
  inventory(): Record<string, number>;
  heldItem(): string | null;
  blockAt(position: Vec3Like): BlockInfo | null;
  /** The nearest cells holding any of the named blocks, nearest first. */
  findBlocks(query: BlockQuery): Vec3Like[];
  /**
   * The entities in view; with `kinds`, only those of these kinds. Read every tick of a step by the safety monitor:
   * in a crowd a bot sees every other bot, and a world may skip building what was not asked for (issue 34, §2).
   */
  entities(kinds?: readonly EntityKind[]): EntityInfo[];
  recipe(item: string): Recipe | null;
  /** The world's truth (for a real server, the server's, not the client's prediction). */
  observe(query?: ObservationQuery): Promise<Observation>;
  /** Ticks of air left (300 when full; src/world/breath-rules.ts), for a world that tracks it. */
  air?(): number;
  /** The items worn in the four armour slots (helmet to boots), for a world that models armour. */
  worn?(): string[];

  // --- actuators ---
  goto(goal: NavigationGoal, options?: ActuatorOptions): Promise<void>;
  stopMovement(): void;
  dig(position: Vec3Like, options?: ActuatorOptions): Promise<void>;
  place(position: Vec3Like, item: string, options?: ActuatorOptions): Promise<void>;
  craft(item: string, times: number, options?: ActuatorOptions & { table?: Vec3Like | null }): Promise<void>;
  equip(item: string, destination: BodyPart, options?: ActuatorOptions): Promise<void>;
  consume(item: string, options?: ActuatorOptions): Promise<void>;
  move(move: UnstuckMove, durationMs: number, options?: ActuatorOptions): Promise<void>;

  // --- optional actuators: a world provides those it implements (see actuatorsOf) ---
  /** Throws `count` of `item` out of the pack; resolves once the world's inventory holds that many fewer. */
  toss?(item: string, count: number, options?: ActuatorOptions): Promise<void>;
  /** Says `message` in chat (at most 256 characters); resolves once the world has taken it. */
  chat?(message: string, options?: ActuatorOptions): Promise<void>;
  /**
   * Smelts `count` of `input` in the furnace at `furnace`, burning `fuel` from the pack (as many as it
   * takes): loads it, waits until the output is done, takes the output. Resolves once the world's
   * inventory holds it.
   */
  smelt?(furnace: Vec3Like, input: string, count: number, fuel: string, options?: ActuatorOptions): Promise<void>;
  /**
   * Moves `count` of `item` from the pack into the container (a chest) at `container`; resolves once the world holds it
   * there.
   */
  deposit?(container: Vec3Like, item: string, count: number, options?: ActuatorOptions): Promise<void>;
  /**
   * Moves `count` of `item` from the container at `container` into the pack; resolves once the world's inventory holds
   * it.
   */
  withdraw?(container: Vec3Like, item: string, count: number, options?: ActuatorOptions): Promise<void>;
  /**
   * Hits the entity `entityId` once with what the main hand holds, in `options.style`; resolves when the swing has
   * landed and (unless `options.recover` is false) the attack cooldown passed (ATTACK_COOLDOWN_MS). Refuses an entity
   * not in sight (precondition_missing) or out of reach (ATTACK_REACH from the eyes: precondition_missing, walk closer
   * first), when it is called and again when a critical swing comes down.
   */
  attack?(entityId: number, options?: AttackOptions): Promise<void>;
  /**
   * Lies in the bed at `bed` and sleeps through the night: resolves once the world's day has begun.
   * Refuses a bed out of reach or none there (precondition_missing), a day (guard_failed: one sleeps only
   * at night) and monsters within SLEEP_MONSTER_RANGE (guard_failed), as a server does.
   */
  sleep?(bed: Vec3Like, options?: ActuatorOptions): Promise<void>;
  /**
   * Uses the block at `block` as a right click does, holding `options.item` when given: opens or shuts a door,
   * trapdoor or fence gate, flips a lever, tills dirt or grass with a hoe. Resolves once the world's truth holds
   * the block's new state. Refuses a block that using does nothing to, or only redstone moves (guard_failed),
   * an item not in the pack, soil with a block on it, or a block out of reach (precondition_missing).
   */
  activate?(block: Vec3Like, options?: ActuatorOptions & { item?: string }): Promise<void>;
  /** Turns the bot's head (and, in SimWorld, its facing) towards a point; resolves once it faces it. */
  look?(at: Vec3Like, options?: ActuatorOptions): Promise<void>;
  /**
   * A user's own actuator, run against the world's native handle (a real
   * world's mineflayer Bot) as one actuator command named `command`: the
   * executor's timers and the journal see it, and `options.signal` and a
   * disconnect cancel it through the signal `act` is given.
   */
  native?(
    command: string,
    act: (handle: unknown, signal: AbortSignal) => Promise<void>,
    options?: ActuatorOptions,
  ): Promise<void>;

  close(): Promise<void>;
}

/** The actuators every world has. */
export const CORE_ACTUATORS = ['goto', 'dig', 'place', 'craft', 'equip', 'consume', 'move'] as const;
/** The actuators a world may have; a capability that commands one says so in its `actuators`. */
export const OPTIONAL_ACTUATORS = [
  'toss',
  'chat',
  'smelt',
  'deposit',
  'withdraw',
  'attack',
  'look',
  'sleep',
  'activate',
  'native',
] as const;
export type ActuatorName = (typeof CORE_ACTUATORS)[number] | (typeof OPTIONAL_ACTUATORS)[number];

/** The actuators `world` provides: the core ones and each optional one it implements. */
export function actuatorsOf(world: WorldPort): ActuatorName[] {
  return [...CORE_ACTUATORS, ...OPTIONAL_ACTUATORS.filter((name) => typeof world[name] === 'function')];
}

/** What an actuator rejects with when the world refuses: a failure code the executor understands. */
export class WorldError extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'WorldError';
  }
}
