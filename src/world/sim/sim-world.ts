import { EventEmitter } from 'eventemitter3';
import type { Clock, TimerHandle } from '../../contracts/clock.js';
import {
  type ActuatorOptions,
  type BlockInfo,
  type BodyPart,
  type EntityInfo,
  type EntityKind,
  type NavigationGoal,
  type Observation,
  type ObservationQuery,
  type PathStatus,
  type Recipe,
  type UnstuckMove,
  type Vec3Like,
  type WorldEvents,
  type WorldPort,
  WorldError,
  blockKey,
} from '../../contracts/world.js';
import { missingIngredients, recipeFor } from '../recipes.js';
import { ActuatorLedger, type ActuatorLogEntry } from './actuator-ledger.js';
import {
  AIR,
  digTimeMs,
  dropsOf,
  foodPoints,
  isKnownBlock,
  isKnownItem,
  isPassable,
  isPlaceableItem,
  isVanillaDiggable,
} from './block-data.js';
import { describeGoal, goalHeuristic } from './goals.js';
import { BlockGrid, DEFAULT_GROUND, type GroundOptions, keyX, keyY, keyZ } from './grid.js';
import { Operation } from './operation.js';
import { findPath } from './path-search.js';
import { type Random, mulberry32 } from '../../random.js';
import { type Cell, DIRECTIONS, Terrain } from './terrain.js';

/** Sprint-less walking speed of a player, blocks per second. */
export const WALK_SPEED = 4.317;
/** One block of walking, rounded to whole ms so virtual timestamps stay integers. */
export const WALK_STEP_MS = Math.round(1000 / WALK_SPEED);
export const REACH = 4.5;
/** A crafting table counts when it is this close (blocks, any axis). */
export const TABLE_RANGE = 4;
export const PICKUP_RANGE = 1.5;
export const EAT_MS = 1600;
export const CRAFT_MS = 250;
export const PLACE_MS = 50;
export const EQUIP_MS = 50;
/** A jump's feet pass one block up after about four ticks and land after twelve, as in vanilla. */
export const JUMP_RISE_MS = 200;
export const JUMP_AIRTIME_MS = 600;
const EYE_HEIGHT = 1.62;
const MAX_STAT = 20;
const LOWEST_Y = -128;

export interface SimWorldOptions {
  clock: Clock;
  /** Seeds `random`, which scenarios use to lay out the world. */
  seed?: number;
  /** The cell the bot's feet start in. Default 0,0,0 (standing on the default ground). */
  spawn?: Vec3Like;
  /** The generated ground; null for none (a void with only explicit blocks). */
  ground?: Partial<GroundOptions> | null;
  blocks?: readonly { position: Vec3Like; name: string }[];
  entities?: readonly SpawnEntity[];
  inventory?: Record<string, number>;
  heldItem?: string | null;
  health?: number;
  food?: number;
  /** Extra block names no tool can break here (bedrock and barrier never break). */
  unbreakable?: readonly string[];
  walkSpeed?: number;
  /** Cells A* may explore before giving up with `timeout`. */
  maxSearchNodes?: number;
  /** Keep `actuatorLog` (default true); benches with many steps turn it off. */
  recordActuatorLog?: boolean;
}

export interface SpawnEntity {
  name: string;
  kind: EntityKind;
  position: Vec3Like;
  item?: { name: string; count: number };
}

interface SimEntity extends EntityInfo {
  position: { x: number; y: number; z: number };
}

/**
 * A deterministic, in-memory world behind the WorldPort contract. Time only
 * moves with the injected clock, so tests drive it with ManualClock.
 */
export class SimWorld implements WorldPort {
  readonly kind = 'sim';
  readonly events = new EventEmitter<WorldEvents>();
  readonly random: Random;
  readonly clock: Clock;

  private readonly grid: BlockGrid;
  private readonly terrain: Terrain;
  private readonly ledger: ActuatorLedger;
  private readonly operations = new Set<Operation>();
  private readonly unbreakable: Set<string>;
  private readonly stepMs: number;
  private readonly maxSearchNodes: number;
  /** The live position (feet, block-centred); position() hands out this object to stay allocation-free. */
  private readonly feet = { x: 0.5, y: 0, z: 0.5 };
  private readonly items = new Map<string, number>();
  private readonly worn = new Map<BodyPart, string>();
  private readonly entityMap = new Map<number, SimEntity>();
  private readonly moveListeners = new Set<(position: Vec3Like) => void>();
  private held: string | null;
  private healthPoints: number;
  private foodPoints: number;
  private connected = true;
  private nextEntityId = 1;
  private facing = 0;
  private locomotion: Operation | null = null;
  /** Pending jump physics (rise, then land); not an actuator, so it outlives the move() call. */
  private readonly jumpTimers: TimerHandle[] = [];

  static create(options: SimWorldOptions): SimWorld {
    return new SimWorld(options);
  }

  constructor(options: SimWorldOptions) {
    this.clock = options.clock;
    this.ledger = new ActuatorLedger(options.recordActuatorLog ?? true);
    this.random = mulberry32(options.seed ?? 1);
    this.grid = new BlockGrid(options.ground === null ? null : { ...DEFAULT_GROUND, ...options.ground });
    this.terrain = new Terrain(this.grid);
    this.unbreakable = new Set(options.unbreakable ?? []);
    this.stepMs = options.walkSpeed === undefined ? WALK_STEP_MS : Math.round(1000 / options.walkSpeed);
    this.maxSearchNodes = options.maxSearchNodes ?? 10_000;
    const spawn = options.spawn ?? { x: 0, y: 0, z: 0 };
    this.setFeet(Math.floor(spawn.x), Math.floor(spawn.y), Math.floor(spawn.z));
    for (const block of options.blocks ?? []) this.setBlock(block.position, block.name);
    for (const entity of options.entities ?? []) this.spawnEntity(entity);
    for (const [name, count] of Object.entries(options.inventory ?? {})) this.giveItem(name, count);
    this.held = options.heldItem ?? null;
    this.healthPoints = options.health ?? MAX_STAT;
    this.foodPoints = options.food ?? MAX_STAT;
  }

  // --- builders (tests and scenarios) ---

  setBlock(position: Vec3Like, name: string): this {
    if (!isKnownBlock(name)) throw new Error(`setBlock: "${name}" is not a Minecraft 1.21.4 block name (e.g. "stone", "oak_log")`);
    this.grid.set(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z), name);
    return this;
  }

  /** Sets every cell of the box spanned by two corners (inclusive). */
  fill(from: Vec3Like, to: Vec3Like, name: string): this {
    const [x0, x1] = span(from.x, to.x);
    const [y0, y1] = span(from.y, to.y);
    const [z0, z1] = span(from.z, to.z);
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) for (let z = z0; z <= z1; z++) this.setBlock({ x, y, z }, name);
    return this;
  }

  spawnEntity(entity: SpawnEntity): number {
    const id = this.nextEntityId++;
    const { x, y, z } = entity.position;
    this.entityMap.set(id, { id, name: entity.name, kind: entity.kind, position: { x, y, z }, ...(entity.item ? { item: { ...entity.item } } : {}) });
    return id;
  }

  /** Moves an entity (a hostile closing in, say); false when there is no such entity. */
  moveEntity(id: number, position: Vec3Like): boolean {
    const entity = this.entityMap.get(id);
    if (!entity) return false;
    entity.position.x = position.x;
    entity.position.y = position.y;
    entity.position.z = position.z;
    return true;
  }

  removeEntity(id: number): boolean {
    return this.entityMap.delete(id);
  }

  giveItem(name: string, count: number): this {
    if (!isKnownItem(name)) throw new Error(`giveItem: "${name}" is not a Minecraft 1.21.4 item name (e.g. "cobblestone")`);
    this.addItems(name, count);
    return this;
  }

  /** Moves the bot's feet into a cell at once (no path, no actuator). */
  teleport(cell: Vec3Like): this {
    this.setFeet(Math.floor(cell.x), Math.floor(cell.y), Math.floor(cell.z));
    return this;
  }

  setHealth(health: number): this {
    const before = this.healthPoints;
    this.healthPoints = clampStat(health);
    if (this.healthPoints < before) this.events.emit('hurt', this.healthPoints);
    return this;
  }

  setFood(food: number): this {
    this.foodPoints = clampStat(food);
    return this;
  }

  /** Calls `listener` after every cell the bot moves into (scenarios use it to react to the bot). */
  onMoved(listener: (position: Vec3Like) => void): () => void {
    this.moveListeners.add(listener);
    return () => this.moveListeners.delete(listener);
  }

  /** Drops the connection: every live actuator rejects with `world_disconnected`, and so does every later one. */
  disconnect(reason = 'connection dropped'): void {
    if (!this.connected) return;
    this.connected = false;
    const error = new WorldError('world_disconnected', `sim world disconnected: ${reason}`);
    for (const operation of [...this.operations]) operation.fail(error);
    for (const timer of this.jumpTimers.splice(0)) this.clock.clearTimeout(timer);
    this.events.emit('disconnected', reason);
  }

  // --- test accounting ---

  /** Actuator calls started and not yet settled. */
  liveActuators(): number {
    return this.ledger.liveCount();
  }

  /** Every actuator call in order, with start and settle times (entries update in place as calls settle). */
  get actuatorLog(): readonly ActuatorLogEntry[] {
    return this.ledger.log;
  }

  // --- observations ---

  isConnected(): boolean {
    return this.connected;
  }

  /** The live position object, updated in place as the bot moves: copy it to keep a value. */
  position(): Vec3Like {
    return this.feet;
  }

  health(): number {
    return this.healthPoints;
  }

  food(): number {
    return this.foodPoints;
  }

  inventory(): Record<string, number> {
    return Object.fromEntries(this.items);
  }

  heldItem(): string | null {
    return this.held;
  }

  /** What is worn or held at `part` (the hand is heldItem()); a sim-only read for tests. */
  equipped(part: BodyPart): string | null {
    return part === 'hand' ? this.held : (this.worn.get(part) ?? null);
  }

  blockAt(position: Vec3Like): BlockInfo | null {
    const x = Math.floor(position.x);
    const y = Math.floor(position.y);
    const z = Math.floor(position.z);
    const name = this.grid.get(x, y, z);
    return { name, position: { x, y, z }, diggable: this.diggable(name) };
  }

  findBlocks(query: { names: readonly string[]; maxDistance: number; count: number }): Vec3Like[] {
    const wanted = new Set(query.names);
    const found: { cell: Cell; distanceSq: number }[] = [];
    const maxSq = query.maxDistance * query.maxDistance;
    const consider = (x: number, y: number, z: number) => {
      const distanceSq = (x + 0.5 - this.feet.x) ** 2 + (y + 0.5 - this.feet.y) ** 2 + (z + 0.5 - this.feet.z) ** 2;
      if (distanceSq <= maxSq) found.push({ cell: { x, y, z }, distanceSq });
    };
    if (this.grid.groundBlockNames().some((name) => wanted.has(name))) {
      // Ground blocks are generated, not stored: scan the cube around the bot.
      const r = Math.ceil(query.maxDistance);
      const [cx, cy, cz] = [this.cellX(), this.cellY(), this.cellZ()];
      for (let x = cx - r; x <= cx + r; x++)
        for (let y = cy - r; y <= cy + r; y++)
          for (let z = cz - r; z <= cz + r; z++) if (wanted.has(this.grid.get(x, y, z))) consider(x, y, z);
    } else {
      for (const [key, name] of this.grid.explicitCells()) if (wanted.has(name)) consider(keyX(key), keyY(key), keyZ(key));
    }
    found.sort((a, b) => a.distanceSq - b.distanceSq || a.cell.x - b.cell.x || a.cell.y - b.cell.y || a.cell.z - b.cell.z);
    return found.slice(0, query.count).map((entry) => entry.cell);
  }

  entities(): EntityInfo[] {
    return [...this.entityMap.values()].map((entity) => ({
      ...entity,
      position: { ...entity.position },
      ...(entity.item ? { item: { ...entity.item } } : {}),
    }));
  }

  recipe(item: string): Recipe | null {
    return recipeFor(item);
  }

  async observe(query?: ObservationQuery): Promise<Observation> {
    if (!this.connected) throw new WorldError('world_disconnected', 'observe: the sim world is disconnected');
    const blocks: Record<string, string> = {};
    for (const position of query?.blocks ?? []) {
      blocks[blockKey(position)] = this.grid.get(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z));
    }
    return {
      at: this.clock.now(),
      position: { x: this.feet.x, y: this.feet.y, z: this.feet.z },
      health: this.healthPoints,
      food: this.foodPoints,
      inventory: this.inventory(),
      heldItem: this.held,
      blocks,
    };
  }

  // --- actuators ---

  goto(goal: NavigationGoal, options?: ActuatorOptions): Promise<void> {
    return this.start('goto', describeGoal(goal), options?.signal, (op) => {
      this.takeLocomotion(op);
      op.onEnd((error) => {
        // A goto that could not plan already said noPath/timeout; 'stopped' means it was cut short.
        if (error && error.code !== 'no_path') this.emitPath('stopped');
      });
      this.walkTo(op, goal);
    });
  }

  stopMovement(): void {
    this.locomotion?.fail(new WorldError('aborted', `${this.locomotion.command} was stopped by stopMovement()`));
  }

  dig(position: Vec3Like, options?: ActuatorOptions): Promise<void> {
    const cell = toCell(position);
    return this.start('dig', cellText(cell), options?.signal, (op) => {
      const name = this.grid.get(cell.x, cell.y, cell.z);
      if (isPassable(name) && !isVanillaDiggable(name)) {
        throw new WorldError('guard_failed', `dig: nothing to dig at ${cellText(cell)} (${name})`);
      }
      if (!this.diggable(name)) throw new WorldError('guard_failed', `dig: ${name} at ${cellText(cell)} cannot be broken in this world`);
      this.requireReach('dig', cell);
      const held = this.held;
      op.after(digTimeMs(name, held), () => {
        this.grid.set(cell.x, cell.y, cell.z, AIR);
        for (const drop of dropsOf(name, held)) this.dropItem(cell, drop);
        this.settleBot();
        this.pickUpNearbyItems();
        op.succeed();
      });
    });
  }

  place(position: Vec3Like, item: string, options?: ActuatorOptions): Promise<void> {
    const cell = toCell(position);
    return this.start('place', `${item} at ${cellText(cell)}`, options?.signal, (op) => {
      if (!isPlaceableItem(item)) throw new WorldError('guard_failed', `place: "${item}" is not a placeable block`);
      if ((this.items.get(item) ?? 0) < 1) throw new WorldError('precondition_missing', `place: no ${item} in the inventory; get one first`);
      const existing = this.grid.get(cell.x, cell.y, cell.z);
      if (!isPassable(existing)) throw new WorldError('guard_failed', `place: ${cellText(cell)} is taken by ${existing}; dig it first or pick an air cell`);
      if (this.occupies(cell)) throw new WorldError('guard_failed', `place: ${cellText(cell)} is the bot's own cell; step aside or jump first`);
      if (!this.hasSolidNeighbour(cell)) throw new WorldError('guard_failed', `place: ${cellText(cell)} has no solid face to place against`);
      this.requireReach('place', cell);
      op.after(PLACE_MS, () => {
        if ((this.items.get(item) ?? 0) < 1) throw new WorldError('precondition_missing', `place: the last ${item} left the inventory`);
        if (this.occupies(cell)) throw new WorldError('guard_failed', `place: the bot moved into ${cellText(cell)}`);
        this.takeItems(item, 1);
        this.grid.set(cell.x, cell.y, cell.z, item);
        op.succeed();
      });
    });
  }

  craft(item: string, times: number, options?: ActuatorOptions & { table?: Vec3Like | null }): Promise<void> {
    return this.start('craft', `${times}x ${item}`, options?.signal, (op) => {
      if (!Number.isInteger(times) || times < 1) throw new WorldError('schema_violation', `craft: times must be a positive integer, got ${times}`);
      const recipe = recipeFor(item);
      if (!recipe) throw new WorldError('guard_failed', `craft: ${item} has no crafting recipe`);
      if (recipe.needsTable) this.requireTable(item, options?.table ?? null);
      this.requireIngredients(recipe, times);
      const craftOnce = (done: number) =>
        op.after(CRAFT_MS, () => {
          // Each craft is one transaction: a cancel between crafts keeps the finished ones and loses nothing.
          this.requireIngredients(recipe, 1);
          for (const [name, count] of Object.entries(recipe.ingredients)) this.takeItems(name, count);
          this.addItems(item, recipe.yields);
          if (done + 1 === times) op.succeed();
          else craftOnce(done + 1);
        });
      craftOnce(0);
    });
  }

  equip(item: string, destination: BodyPart, options?: ActuatorOptions): Promise<void> {
    return this.start('equip', `${item} to ${destination}`, options?.signal, (op) => {
      if ((this.items.get(item) ?? 0) < 1) throw new WorldError('precondition_missing', `equip: no ${item} in the inventory; get one first`);
      op.after(EQUIP_MS, () => {
        if (destination === 'hand') this.held = item;
        else {
          // As in the game, worn armour and the off-hand item leave the main inventory; what they replace returns to it.
          const previous = this.worn.get(destination);
          this.takeItems(item, 1);
          if (previous) this.giveItem(previous, 1);
          this.worn.set(destination, item);
        }
        op.succeed();
      });
    });
  }

  consume(item: string, options?: ActuatorOptions): Promise<void> {
    return this.start('consume', item, options?.signal, (op) => {
      const points = foodPoints(item);
      if (points === undefined) throw new WorldError('guard_failed', `consume: ${item} is not food`);
      if ((this.items.get(item) ?? 0) < 1) throw new WorldError('precondition_missing', `consume: no ${item} in the inventory; get some food first`);
      if (this.foodPoints >= MAX_STAT) throw new WorldError('guard_failed', 'consume: food is full (20/20), the bot cannot eat');
      op.after(EAT_MS, () => {
        if ((this.items.get(item) ?? 0) < 1) throw new WorldError('precondition_missing', `consume: the last ${item} left the inventory`);
        this.takeItems(item, 1);
        this.foodPoints = Math.min(MAX_STAT, this.foodPoints + points);
        op.succeed();
      });
    });
  }

  move(move: UnstuckMove, durationMs: number, options?: ActuatorOptions): Promise<void> {
    return this.start('move', `${move} for ${durationMs}ms`, options?.signal, (op) => {
      this.takeLocomotion(op);
      if (move === 'jump') this.jump(durationMs);
      else this.walkFor(op, move, durationMs);
      op.after(durationMs, () => op.succeed());
    });
  }

  async close(): Promise<void> {
    this.disconnect('closed');
  }

  // --- movement ---

  /**
   * Walks a planned path one block per step. When the search runs out of nodes
   * it walks the partial path to the closest cell found and searches again from
   * there, as mineflayer-pathfinder does; each partial leg must get strictly
   * closer, so this ends. A path the world has broken is replanned.
   */
  private walkTo(op: Operation, goal: NavigationGoal): void {
    let path: Cell[] = [];
    let complete = false;
    let index = 0;
    const plan = (): boolean => {
      const here = this.cell();
      const result = findPath(this.terrain, here, goal, this.maxSearchNodes);
      if (result.status === 'found') {
        this.emitPath('planned');
        [path, complete, index] = [result.path, true, 0];
        return true;
      }
      if (result.status === 'timeout' && result.partialHeuristic < goalHeuristic(goal, here.x, here.y, here.z)) {
        this.emitPath('partial');
        [path, complete, index] = [result.partial, false, 0];
        return true;
      }
      this.emitPath(result.status);
      const why = result.status === 'noPath' ? 'no path exists' : `no path found within ${this.maxSearchNodes} explored cells`;
      op.fail(new WorldError('no_path', `goto ${describeGoal(goal)}: ${why} (searched ${result.explored} cells)`));
      return false;
    };
    const next = (): void => {
      if (index >= path.length) {
        if (!complete) return void (plan() && next());
        this.emitPath('reached');
        return op.succeed();
      }
      op.after(this.stepMs, () => {
        const target = path[index]!;
        // The world changed under the path: replan from here.
        if (!this.terrain.canMove(this.cell(), target)) return void (plan() && next());
        this.faceTowards(target);
        this.setFeet(target.x, target.y, target.z);
        index++;
        this.afterMove();
        if (op.active) next();
      });
    };
    if (plan()) next();
  }

  private walkFor(op: Operation, move: Exclude<UnstuckMove, 'jump'>, durationMs: number): void {
    const turn = { forward: 0, right: 1, back: 2, left: 3 }[move];
    const [dx, dz] = DIRECTIONS[(this.facing + turn) % 4]!;
    const steps = Math.floor(durationMs / this.stepMs);
    const stepOnce = (taken: number) => {
      if (taken >= steps) return;
      op.after(this.stepMs, () => {
        const target = this.terrain.step(this.cellX(), this.cellY(), this.cellZ(), dx, dz, false);
        if (target) {
          this.setFeet(target.x, target.y, target.z);
          this.afterMove();
        }
        stepOnce(taken + 1);
      });
    };
    stepOnce(0);
  }

  /** Lifts the bot one block after JUMP_RISE_MS and lands it later, on whatever is below by then (e.g. a block placed under it). */
  private jump(durationMs: number): void {
    if (this.jumpTimers.length > 0) return;
    const [x, y, z] = [this.cellX(), this.cellY(), this.cellZ()];
    const canRise = this.terrain.solid(x, y - 1, z) && this.terrain.passable(x, y + 2, z);
    const physics = (delayMs: number, effect: () => void) => {
      const timer = this.clock.setTimeout(() => {
        this.jumpTimers.splice(this.jumpTimers.indexOf(timer), 1);
        effect();
      }, delayMs);
      this.jumpTimers.push(timer);
    };
    if (canRise) physics(JUMP_RISE_MS, () => this.setFeet(x, y + 1, z));
    physics(Math.max(JUMP_AIRTIME_MS, durationMs), () => {
      this.settleBot();
      this.afterMove();
    });
  }

  private takeLocomotion(op: Operation): void {
    this.locomotion?.fail(new WorldError('preempted', `${this.locomotion.command} was replaced by a newer ${op.command}`));
    this.locomotion = op;
    op.onEnd(() => {
      if (this.locomotion === op) this.locomotion = null;
    });
  }

  private settleBot(): void {
    if (this.jumpTimers.length > 0) return;
    const restY = this.terrain.restingY(this.cellX(), this.cellY(), this.cellZ(), LOWEST_Y);
    if (restY !== this.cellY()) this.setFeet(this.cellX(), restY, this.cellZ());
  }

  private afterMove(): void {
    this.pickUpNearbyItems();
    for (const listener of this.moveListeners) listener(this.feet);
  }

  private faceTowards(target: Cell): void {
    const dx = Math.sign(target.x - this.cellX());
    const dz = Math.sign(target.z - this.cellZ());
    const index = DIRECTIONS.findIndex(([x, z]) => x === dx && z === dz);
    if (index >= 0) this.facing = index;
  }

  // --- items and rules ---

  private dropItem(cell: Cell, name: string): void {
    const restY = this.terrain.restingY(cell.x, cell.y, cell.z, LOWEST_Y);
    this.spawnEntity({ name: 'item', kind: 'item', position: { x: cell.x + 0.5, y: restY, z: cell.z + 0.5 }, item: { name, count: 1 } });
  }

  private pickUpNearbyItems(): void {
    for (const entity of this.entityMap.values()) {
      if (entity.kind !== 'item' || !entity.item) continue;
      const { x, y, z } = entity.position;
      const distanceSq = (x - this.feet.x) ** 2 + (y - this.feet.y) ** 2 + (z - this.feet.z) ** 2;
      if (distanceSq <= PICKUP_RANGE * PICKUP_RANGE) {
        this.addItems(entity.item.name, entity.item.count);
        this.entityMap.delete(entity.id);
      }
    }
  }

  private diggable(name: string): boolean {
    return isVanillaDiggable(name) && !this.unbreakable.has(name);
  }

  private requireReach(command: string, cell: Cell): void {
    const distance = Math.sqrt(
      (cell.x + 0.5 - this.feet.x) ** 2 + (cell.y + 0.5 - (this.feet.y + EYE_HEIGHT)) ** 2 + (cell.z + 0.5 - this.feet.z) ** 2,
    );
    if (distance > REACH) {
      throw new WorldError('precondition_missing', `${command}: ${cellText(cell)} is ${distance.toFixed(1)} blocks away, reach is ${REACH}; navigate closer first`);
    }
  }

  private requireTable(item: string, table: Vec3Like | null): void {
    if (table) {
      const cell = toCell(table);
      if (this.grid.get(cell.x, cell.y, cell.z) !== 'crafting_table') {
        throw new WorldError('precondition_missing', `craft: no crafting_table at ${cellText(cell)}; place one or pass its position`);
      }
      this.requireReach('craft', cell);
      return;
    }
    if (this.findBlocks({ names: ['crafting_table'], maxDistance: TABLE_RANGE, count: 1 }).length === 0) {
      throw new WorldError('precondition_missing', `craft: ${item} needs a crafting_table within ${TABLE_RANGE} blocks; place one or go to one`);
    }
  }

  private requireIngredients(recipe: Recipe, times: number): void {
    const missing = missingIngredients(recipe, times, Object.fromEntries(this.items));
    const list = Object.entries(missing).map(([name, count]) => `${count} ${name}`);
    if (list.length > 0) throw new WorldError('precondition_missing', `craft: ${times}x ${recipe.item} is missing ${list.join(', ')}`);
  }

  private occupies(cell: Cell): boolean {
    return cell.x === this.cellX() && cell.z === this.cellZ() && (cell.y === this.cellY() || cell.y === this.cellY() + 1);
  }

  private hasSolidNeighbour(cell: Cell): boolean {
    const { x, y, z } = cell;
    return (
      this.terrain.solid(x, y - 1, z) || this.terrain.solid(x, y + 1, z) ||
      this.terrain.solid(x + 1, y, z) || this.terrain.solid(x - 1, y, z) ||
      this.terrain.solid(x, y, z + 1) || this.terrain.solid(x, y, z - 1)
    );
  }

  private addItems(name: string, count: number): void {
    this.items.set(name, (this.items.get(name) ?? 0) + count);
  }

  private takeItems(name: string, count: number): void {
    const left = (this.items.get(name) ?? 0) - count;
    if (left > 0) this.items.set(name, left);
    else {
      this.items.delete(name);
      if (this.held === name) this.held = null;
    }
  }

  // --- plumbing ---

  /** Runs one actuator call: logged, counted live until settled, refused when disconnected or already aborted. */
  private start(command: string, detail: string, signal: AbortSignal | undefined, body: (op: Operation) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const entry = this.ledger.open(command, detail, this.clock.now());
      const op = new Operation(this.clock, this.ledger, entry, signal, resolve, reject, (done) => this.operations.delete(done));
      this.operations.add(op);
      if (!this.connected) return op.fail(new WorldError('world_disconnected', `${command}: the sim world is disconnected`));
      if (signal?.aborted) return op.fail(new WorldError('aborted', `${command} (${detail}) was aborted before it started`));
      op.guard(() => body(op));
    });
  }

  private emitPath(status: PathStatus): void {
    this.events.emit('path', status);
  }

  private setFeet(x: number, y: number, z: number): void {
    this.feet.x = x + 0.5;
    this.feet.y = y;
    this.feet.z = z + 0.5;
  }

  private cellX(): number {
    return Math.floor(this.feet.x);
  }
  private cellY(): number {
    return Math.floor(this.feet.y);
  }
  private cellZ(): number {
    return Math.floor(this.feet.z);
  }
  private cell(): Cell {
    return { x: this.cellX(), y: this.cellY(), z: this.cellZ() };
  }
}

function span(a: number, b: number): [number, number] {
  return [Math.floor(Math.min(a, b)), Math.floor(Math.max(a, b))];
}

function toCell(position: Vec3Like): Cell {
  return { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
}

function cellText(cell: Cell): string {
  return `${cell.x},${cell.y},${cell.z}`;
}

function clampStat(value: number): number {
  return Math.max(0, Math.min(MAX_STAT, value));
}
