import { EventEmitter } from 'eventemitter3';
import type { Clock } from '../../contracts/clock.js';
import {
  type BlockQuery,
  type ActuatorOptions,
  type AttackOptions,
  type BlockInfo,
  type BlockState,
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
} from '../../contracts/world.js';
import { recipeFor } from '../recipes.js';
import { type Random, mulberry32 } from '../../random.js';
import type { ActuatorLedger, ActuatorLogEntry } from './actuator-ledger.js';
import type { ActuatorRunner } from './actuator-runner.js';
import { isKnownBlock } from './block-data.js';
import { type Body, clampStat } from './body.js';
import { cellText, cellsOfBox, pointText, toCell } from './cells.js';
import { MAX_STAT } from './constants.js';
import { consume } from './consume.js';
import { craft } from './craft.js';
import { canBreak, dig } from './dig.js';
import type { EntityStore, SpawnEntity } from './entity-store.js';
import { equip } from './equip.js';
import { findBlocks } from './find-blocks.js';
import { describeGoal } from './goals.js';
import type { BlockGrid } from './grid.js';
import type { Breath } from './breath.js';
import type { Regeneration } from './regeneration.js';
import type { HazardDamage } from './hazard-damage.js';
import type { Locomotion } from './locomotion.js';
import { place } from './place.js';
import { toss } from './toss-chat.js';
import { checkChat } from '../actuator-rules.js';
import { SPAWN_SATURATION } from '../health-rules.js';
import { attack } from './attack.js';
import { observeSim } from './observe.js';
import { deposit, smelt, withdraw } from './container-ops.js';
import { SimContainers } from './containers.js';
import type { DayClock } from './day-clock.js';
import { sleep } from './sleep.js';
import type { SimDeath } from './death.js';
import { activate } from './activate.js';
import type { SimMobs } from './mob-life.js';
import type { SimParts } from './sim-parts.js';
import { type SimWorldOptions, assembleSim } from './sim-assembly.js';

export type { SpawnEntity } from './entity-store.js';
export type { SimWorldOptions } from './sim-assembly.js';

/**
 * A deterministic, in-memory world behind the WorldPort contract. Time only
 * moves with the injected clock, so tests drive it with ManualClock.
 */
export class SimWorld implements WorldPort {
  readonly kind = 'sim';
  readonly events = new EventEmitter<WorldEvents>();
  /** Every message said in chat, in order: what a server would have relayed. */
  readonly chatLog: string[] = [];
  readonly random: Random;
  readonly clock: Clock;

  private readonly grid: BlockGrid;
  private readonly ledger: ActuatorLedger;
  private readonly runner: ActuatorRunner;
  private readonly body: Body;
  private readonly entityStore: EntityStore;
  private readonly day: DayClock;
  private readonly locomotion: Locomotion;
  private readonly parts: SimParts;
  private readonly moveListeners = new Set<(position: Vec3Like) => void>();
  private readonly hazardDamage: HazardDamage;
  private readonly breath: Breath;
  private readonly regeneration: Regeneration;
  private readonly containers = new SimContainers();
  private readonly mobs: SimMobs;
  private readonly death: SimDeath;

  static create(options: SimWorldOptions): SimWorld {
    return new SimWorld(options);
  }

  constructor(options: SimWorldOptions) {
    this.clock = options.clock;
    this.random = mulberry32(options.seed ?? 1);
    ({
      grid: this.grid,
      ledger: this.ledger,
      runner: this.runner,
      body: this.body,
      entityStore: this.entityStore,
      day: this.day,
      mobs: this.mobs,
      hazardDamage: this.hazardDamage,
      breath: this.breath,
      regeneration: this.regeneration,
      locomotion: this.locomotion,
      death: this.death,
      parts: this.parts,
    } = assembleSim(options, {
      setHealth: (health, cause) => this.setHealth(health, cause),
      emitPath: (status) => this.emitPath(status),
      afterMove: () => this.afterMove(),
      teleport: (cell) => this.teleport(cell),
      died: (death) => this.events.emit('died', death),
    }));
    this.teleport(options.spawn ?? { x: 0, y: 0, z: 0 });
    for (const block of options.blocks ?? []) this.setBlock(block.position, block.name);
    for (const entity of options.entities ?? []) this.spawnEntity(entity);
    for (const [name, count] of Object.entries(options.inventory ?? {})) this.giveItem(name, count);
    this.body.held = options.heldItem ?? null;
    this.body.health = options.health ?? MAX_STAT;
    this.setFood(options.food ?? MAX_STAT, options.saturation ?? SPAWN_SATURATION);
    this.mobs.wake();
  }

  // --- builders (tests and scenarios) ---

  setBlock(position: Vec3Like, name: string): this {
    if (!isKnownBlock(name))
      throw new Error(`setBlock: "${name}" is not a Minecraft 1.21.4 block name (e.g. "stone", "oak_log")`);
    this.grid.set(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z), name);
    this.hazardDamage.check();
    this.breath.check();
    return this;
  }

  /** The block at a cell with the state using it changes (open, powered): what an observation's `states` reports. */
  blockState(position: Vec3Like): BlockState {
    return this.grid.state(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z));
  }

  /** Sets every cell of the box spanned by two corners (inclusive). */
  fill(from: Vec3Like, to: Vec3Like, name: string): this {
    for (const cell of cellsOfBox(from, to)) this.setBlock(cell, name);
    return this;
  }

  spawnEntity(entity: SpawnEntity): number {
    const id = this.entityStore.spawn(entity);
    if (entity.ai && entity.midAct) this.mobs.resume({ ...entity, id }, entity.midAct);
    if (entity.ai) this.mobs.wake();
    return id;
  }

  /** Moves an entity (a hostile closing in, say); false when there is no such entity. */
  moveEntity(id: number, position: Vec3Like): boolean {
    return this.entityStore.move(id, position);
  }

  removeEntity(id: number): boolean {
    return this.entityStore.remove(id);
  }

  giveItem(name: string, count: number): this {
    this.body.giveItem(name, count);
    return this;
  }

  /** Moves the bot's feet into a cell at once (no path, no actuator). */
  teleport(cell: Vec3Like): this {
    this.body.setFeet(Math.floor(cell.x), Math.floor(cell.y), Math.floor(cell.z));
    this.hazardDamage.check();
    this.breath.check();
    return this;
  }

  /** `cause`, what hurt it, is what its death names if this blow kills it (at 0 it dies: death.ts). */
  setHealth(health: number, cause?: string): this {
    const before = this.body.health;
    this.body.health = clampStat(health);
    if (this.body.health < before) this.events.emit('hurt', this.body.health);
    this.death.healthChanged(before, cause);
    this.regeneration.check();
    return this;
  }

  /** `saturation`: default what the body has, and never above the food, as in vanilla. */
  setFood(food: number, saturation = this.body.saturation): this {
    this.body.food = clampStat(food);
    this.body.saturation = Math.max(0, Math.min(this.body.food, saturation));
    this.regeneration.check();
    return this;
  }

  /** Calls `listener` after every cell the bot moves into (scenarios use it to react to the bot). */
  onMoved(listener: (position: Vec3Like) => void): () => void {
    this.moveListeners.add(listener);
    return () => this.moveListeners.delete(listener);
  }

  /** Drops the connection: every live actuator rejects with `world_disconnected`, and so does every later one. */
  disconnect(reason = 'connection dropped'): void {
    if (!this.runner.connected) return;
    this.runner.disconnect(new WorldError('world_disconnected', `sim world disconnected: ${reason}`));
    this.locomotion.cancelJumps();
    this.death.stop();
    this.hazardDamage.stop();
    this.breath.stop();
    this.regeneration.stop();
    this.mobs.stop();
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
    return this.runner.connected;
  }

  /** The live position object, updated in place as the bot moves: copy it to keep a value. */
  position(): Vec3Like {
    return this.body.feet;
  }

  health(): number {
    return this.body.health;
  }

  /** Ticks of air left (300 when full), by the drowning rules the embedded server applies. */
  air(): number {
    return this.breath.air;
  }

  food(): number {
    return this.body.food;
  }

  /** Saturation, spent before food (src/world/health-rules.ts); a sim-only read for tests. */
  saturation(): number {
    return this.body.saturation;
  }

  inventory(): Record<string, number> {
    return Object.fromEntries(this.body.items);
  }

  heldItem(): string | null {
    return this.body.held;
  }

  worn(): string[] {
    return [...this.body.worn].filter(([part]) => part !== 'off-hand').map(([, item]) => item);
  }

  /** What is worn or held at `part` (the hand is heldItem()); a sim-only read for tests. */
  equipped(part: BodyPart): string | null {
    return part === 'hand' ? this.body.held : (this.body.worn.get(part) ?? null);
  }

  blockAt(position: Vec3Like): BlockInfo | null {
    const { x, y, z } = toCell(position);
    const name = this.grid.get(x, y, z);
    return { name, position: { x, y, z }, diggable: canBreak(name, this.parts.unbreakable) };
  }

  findBlocks(query: BlockQuery): Vec3Like[] {
    return findBlocks(this.grid, this.body, query);
  }

  /** What the store shows, and how far a swelling creeper's fuse has burnt (the mob rules keep it). */
  entities(kinds?: readonly EntityKind[]): EntityInfo[] {
    const listed = this.entityStore.list();
    return (kinds ? listed.filter((entity) => kinds.includes(entity.kind)) : listed).map((entity) => {
      const fuseTicks = entity.swelling === undefined ? undefined : this.mobs.fuseOf(entity.id);
      return fuseTicks === undefined ? entity : { ...entity, fuseTicks };
    });
  }

  recipe(item: string): Recipe | null {
    return recipeFor(item, this.inventory());
  }

  observe(query?: ObservationQuery): Promise<Observation> {
    if (!this.runner.connected) {
      return Promise.reject(new WorldError('world_disconnected', 'observe: the sim world is disconnected'));
    }
    return Promise.resolve(observeSim(this.parts, this.day, this.containers, query));
  }

  // --- actuators ---

  goto(goal: NavigationGoal, options?: ActuatorOptions): Promise<void> {
    return this.runner.start('goto', describeGoal(goal), options?.signal, (op) => {
      this.locomotion.take(op);
      op.onEnd((error) => {
        // A goto that could not plan already said noPath/timeout; 'stopped' means it was cut short.
        if (error && error.code !== 'no_path' && error.code !== 'hazard') this.emitPath('stopped');
      });
      this.locomotion.walkTo(op, goal);
    });
  }

  stopMovement(): void {
    this.locomotion.stop();
  }

  dig(position: Vec3Like, options?: ActuatorOptions): Promise<void> {
    const cell = toCell(position);
    return this.runner.start('dig', cellText(cell), options?.signal, (op) => dig(this.parts, op, cell));
  }

  place(position: Vec3Like, item: string, options?: ActuatorOptions): Promise<void> {
    const cell = toCell(position);
    return this.runner.start('place', `${item} at ${cellText(cell)}`, options?.signal, (op) =>
      place(this.parts, op, cell, item),
    );
  }

  craft(item: string, times: number, options?: ActuatorOptions & { table?: Vec3Like | null }): Promise<void> {
    return this.runner.start('craft', `${times}x ${item}`, options?.signal, (op) =>
      craft(this.parts, op, item, times, options?.table ?? null),
    );
  }

  equip(item: string, destination: BodyPart, options?: ActuatorOptions): Promise<void> {
    return this.runner.start('equip', `${item} to ${destination}`, options?.signal, (op) =>
      equip(this.body, op, item, destination),
    );
  }

  consume(item: string, options?: ActuatorOptions): Promise<void> {
    return this.runner.start('consume', item, options?.signal, (op) =>
      consume(this.body, op, item, () => this.regeneration.check()),
    );
  }

  move(move: UnstuckMove, durationMs: number, options?: ActuatorOptions): Promise<void> {
    return this.runner.start('move', `${move} for ${durationMs}ms`, options?.signal, (op) => {
      this.locomotion.take(op);
      this.locomotion.move(op, move, durationMs);
      op.after(durationMs, () => op.succeed());
    });
  }

  toss(item: string, count: number, options?: ActuatorOptions): Promise<void> {
    return this.runner.start('toss', `${count}x ${item}`, options?.signal, (op) => {
      toss(this.parts, item, count);
      op.succeed();
    });
  }

  attack(entityId: number, options?: AttackOptions): Promise<void> {
    const how = options?.style && options.style !== 'plain' ? ` (${options.style})` : '';
    return this.runner.start('attack', `entity ${entityId}${how}`, options?.signal, (op) =>
      attack(this.parts, op, entityId, options),
    );
  }

  sleep(bed: Vec3Like, options?: ActuatorOptions): Promise<void> {
    return this.runner.start('sleep', cellText(toCell(bed)), options?.signal, (op) =>
      sleep(this.parts, this.day, op, bed),
    );
  }

  activate(block: Vec3Like, options?: ActuatorOptions & { item?: string }): Promise<void> {
    const what = `${cellText(toCell(block))}${options?.item ? ` with ${options.item}` : ''}`;
    return this.runner.start('activate', what, options?.signal, (op) => activate(this.parts, op, block, options?.item));
  }

  /** Ticks into the day (0 sunrise, 13000 night); a test may set it. */
  timeOfDay(tick?: number): number {
    if (tick !== undefined) this.day.set(tick);
    return this.day.now();
  }

  look(at: Vec3Like, options?: ActuatorOptions): Promise<void> {
    return this.runner.start('look', pointText(at), options?.signal, (op) => {
      // The body faces one of four directions: the one nearest the point's.
      const [dx, dz] = [at.x - this.body.feet.x, at.z - this.body.feet.z];
      const along = Math.abs(dx) >= Math.abs(dz) ? { x: Math.sign(dx), z: 0 } : { x: 0, z: Math.sign(dz) };
      this.locomotion.faceTowards({ x: this.body.cellX() + along.x, z: this.body.cellZ() + along.z });
      op.succeed();
    });
  }

  chat(message: string, options?: ActuatorOptions): Promise<void> {
    return this.runner.start('chat', message, options?.signal, (op) => {
      checkChat(message);
      this.chatLog.push(message);
      op.succeed();
    });
  }

  smelt(furnace: Vec3Like, input: string, count: number, fuel: string, options?: ActuatorOptions): Promise<void> {
    const cell = toCell(furnace);
    return this.runner.start('smelt', `${count}x ${input} with ${fuel} at ${cellText(cell)}`, options?.signal, (op) =>
      smelt(this.parts, this.containers, op, cell, input, count, fuel),
    );
  }

  deposit(container: Vec3Like, item: string, count: number, options?: ActuatorOptions): Promise<void> {
    const cell = toCell(container);
    return this.runner.start('deposit', `${count}x ${item} into ${cellText(cell)}`, options?.signal, (op) =>
      deposit(this.parts, this.containers, op, cell, item, count),
    );
  }

  withdraw(container: Vec3Like, item: string, count: number, options?: ActuatorOptions): Promise<void> {
    const cell = toCell(container);
    return this.runner.start('withdraw', `${count}x ${item} from ${cellText(cell)}`, options?.signal, (op) =>
      withdraw(this.parts, this.containers, op, cell, item, count),
    );
  }

  close(): Promise<void> {
    this.disconnect('closed');
    return Promise.resolve();
  }

  private afterMove(): void {
    this.hazardDamage.check();
    this.breath.check();
    this.entityStore.pickUpNear(this.body);
    for (const listener of this.moveListeners) listener(this.body.feet);
  }

  private emitPath(status: PathStatus): void {
    this.events.emit('path', status);
  }
}
