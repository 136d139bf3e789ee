import { EventEmitter } from 'eventemitter3';
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { Vec3 } from 'vec3';
import type { Clock } from '../../contracts/clock.js';
import {
  WorldError,
  blockKey,
  type ActuatorOptions,
  type BlockInfo,
  type BodyPart,
  type EntityInfo,
  type NavigationGoal,
  type Observation,
  type ObservationQuery,
  type Recipe,
  type UnstuckMove,
  type Vec3Like,
  type WorldEvents,
  type WorldPort,
} from '../../contracts/world.js';
import { systemClock } from '../../clock/index.js';
import { recipeFor } from '../recipes.js';
import { loadMineflayer } from './load-mineflayer.js';
import { navigate } from './navigate.js';
import { entityInfo, isSpawned } from './entities.js';
import { placementProblem } from './placement.js';
import { waitFor } from './wait-for.js';

/** What a world can learn from the server itself (the embedded server provides it). */
export interface ServerTruth {
  blockAt(position: Vec3Like): Promise<string>;
  player(username: string): { position: Vec3Like; health: number; food: number; inventory: Record<string, number> } | null;
}

export interface MineflayerWorldOptions {
  clock?: Clock;
  /** When given, observe() and effect confirmation read the server, not the client's prediction. */
  serverTruth?: ServerTruth | null;
  /** goto fails with no_path after this long without movement (default 4000). */
  stallTimeoutMs?: number;
  /** How far pathfinder searches (blocks); bounds the time an unreachable goal takes to fail. */
  searchRadius?: number;
  /** How long to wait for the server to confirm an effect the client predicted. */
  confirmTimeoutMs?: number;
}

const CLOSE_GRACE_MS = 1000;
/** mineflayer's placeBlock with options; its typings leave it out. */
type PlacingBot = Bot & {
  _placeBlockWithOptions(reference: Block, face: Vec3, options: { swingArm: 'right'; forceLook: boolean }): Promise<void>;
};

const ARMOR_SLOTS: ReadonlySet<BodyPart> = new Set(['head', 'torso', 'legs', 'feet']);

const MOVE_CONTROLS: Record<UnstuckMove, 'jump' | 'back' | 'forward' | 'left' | 'right'> = {
  jump: 'jump',
  back: 'back',
  forward: 'forward',
  left: 'left',
  right: 'right',
};

/** WorldPort over a real mineflayer bot with mineflayer-pathfinder. */
export class MineflayerWorld implements WorldPort {
  readonly kind = 'mineflayer';
  readonly events = new EventEmitter<WorldEvents>();
  private connected = true;
  private readonly clock: Clock;
  private readonly serverTruth: ServerTruth | null;
  private readonly stallTimeoutMs: number;
  private readonly confirmTimeoutMs: number;
  private readonly onDisconnect = new Set<(reason: string) => void>();

  constructor(
    readonly bot: Bot,
    options: MineflayerWorldOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.serverTruth = options.serverTruth ?? null;
    this.stallTimeoutMs = options.stallTimeoutMs ?? 4000;
    this.confirmTimeoutMs = options.confirmTimeoutMs ?? 2000;
    const { pathfinder } = loadMineflayer();
    if (!bot.pathfinder) bot.loadPlugin(pathfinder.pathfinder);
    const movements = new pathfinder.Movements(bot);
    // Navigation walks; digging and building are separate, verified steps, and
    // scaffolding would spend blocks the plan needs (cobblestone for a stone axe).
    movements.canDig = false;
    movements.allow1by1towers = false;
    movements.scafoldingBlocks = [];
    // Players pass through each other; pathfinder's entity weighting instead
    // found no path at all for bots crowded at a shared spawn (50 bots).
    movements.allowEntityDetection = false;
    bot.pathfinder.setMovements(movements);
    bot.pathfinder.thinkTimeout = 3000;
    (bot.pathfinder as unknown as { searchRadius: number }).searchRadius = options.searchRadius ?? 48;
    let lastHealth = bot.health;
    bot.on('health', () => {
      if (bot.health < lastHealth) this.events.emit('hurt', bot.health);
      lastHealth = bot.health;
    });
    bot.once('end', (reason) => this.disconnected(`connection ended: ${reason}`));
    bot.once('kicked', (reason) => this.disconnected(`kicked: ${typeof reason === 'string' ? reason : JSON.stringify(reason)}`));
  }

  isConnected(): boolean {
    return this.connected;
  }

  // --- observations ---

  position(): Vec3Like {
    const { x, y, z } = this.bot.entity.position;
    return { x, y, z };
  }

  health(): number {
    return this.bot.health;
  }

  food(): number {
    return this.bot.food;
  }

  inventory(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const item of this.bot.inventory.items()) counts[item.name] = (counts[item.name] ?? 0) + item.count;
    return counts;
  }

  heldItem(): string | null {
    return this.bot.heldItem?.name ?? null;
  }

  blockAt(position: Vec3Like): BlockInfo | null {
    const block = this.bot.blockAt(toVec3(position));
    if (!block) return null;
    return { name: block.name, position: { x: block.position.x, y: block.position.y, z: block.position.z }, diggable: block.diggable };
  }

  findBlocks(query: { names: readonly string[]; maxDistance: number; count: number }): Vec3Like[] {
    const ids = query.names.map((name) => this.bot.registry.blocksByName[name]?.id).filter((id): id is number => id !== undefined);
    if (ids.length === 0) return [];
    return this.bot
      .findBlocks({ matching: ids, maxDistance: query.maxDistance, count: query.count })
      .map(({ x, y, z }) => ({ x, y, z }));
  }

  entities(): EntityInfo[] {
    return Object.values(this.bot.entities)
      .filter((entity) => entity !== this.bot.entity && isSpawned(entity))
      .map(entityInfo);
  }

  recipe(item: string): Recipe | null {
    return recipeFor(item);
  }

  async observe(query: ObservationQuery = {}): Promise<Observation> {
    const server = this.serverTruth?.player(this.bot.username) ?? null;
    const blocks: Record<string, string> = {};
    for (const position of query.blocks ?? []) {
      blocks[blockKey(position)] = this.serverTruth
        ? await this.serverTruth.blockAt(position)
        : (this.bot.blockAt(toVec3(position))?.name ?? 'unknown');
    }
    return {
      at: this.clock.now(),
      position: server?.position ?? this.position(),
      health: server?.health ?? this.health(),
      food: server?.food ?? this.food(),
      inventory: server?.inventory ?? this.inventory(),
      heldItem: this.heldItem(),
      blocks,
    };
  }

  // --- actuators ---

  goto(goal: NavigationGoal, options: ActuatorOptions = {}): Promise<void> {
    const { goals } = loadMineflayer().pathfinder;
    return this.actuate('goto', options, () => {
      const walk = navigate(this.bot, goal, {
        goals,
        clock: this.clock,
        stallTimeoutMs: this.stallTimeoutMs,
        onStatus: (status) => this.events.emit('path', status),
      });
      return { done: walk.done.then(() => this.serverCaughtUp()), cancel: walk.stop };
    });
  }

  stopMovement(): void {
    this.bot.pathfinder.stop();
    this.bot.pathfinder.setGoal(null);
    this.bot.clearControlStates();
  }

  dig(position: Vec3Like, options: ActuatorOptions = {}): Promise<void> {
    return this.actuate('dig', options, () => {
      const block = this.bot.blockAt(toVec3(position));
      const where = blockKey(position);
      if (!block) throw new WorldError('precondition_missing', `cannot dig ${where}: that chunk is not loaded; move closer first`);
      if (block.name === 'air' || block.name === 'cave_air') throw new WorldError('precondition_missing', `cannot dig ${where}: there is no block (air)`);
      if (!block.diggable) throw new WorldError('precondition_missing', `cannot dig ${block.name} at ${where}: no tool can break it`);
      if (!this.bot.canDigBlock(block)) throw new WorldError('precondition_missing', `cannot dig ${block.name} at ${where}: out of reach; navigate within 4 blocks first`);
      const done = this.bot.dig(block, true).then(() => this.confirmBlock(position, (name) => name !== block.name, `${block.name} at ${where} to be gone`));
      return { done, cancel: () => this.bot.stopDigging() };
    });
  }

  place(position: Vec3Like, item: string, options: ActuatorOptions = {}): Promise<void> {
    return this.actuate('place', options, () => {
      const problem = placementProblem(this.bot, position, item);
      if (typeof problem === 'string') throw new WorldError('precondition_missing', problem);
      const { reference, face, itemId } = problem;
      const done = (async () => {
        await this.bot.equip(itemId, 'hand');
        // A forced look turns the head at once: the default smooth turn costs up
        // to a second per block when building around the bot.
        await (this.bot as PlacingBot)._placeBlockWithOptions(reference as Block, face, { swingArm: 'right', forceLook: true });
        await this.confirmBlock(position, (name) => name === item, `${item} at ${blockKey(position)}`);
      })();
      return { done, cancel: () => {} };
    });
  }

  craft(item: string, times: number, options: ActuatorOptions & { table?: Vec3Like | null } = {}): Promise<void> {
    return this.actuate('craft', options, () => {
      const itemData = this.bot.registry.itemsByName[item];
      if (!itemData) throw new WorldError('precondition_missing', `cannot craft "${item}": not an item in ${this.bot.version}`);
      const table = options.table ? this.bot.blockAt(toVec3(options.table)) : null;
      if (options.table && table?.name !== 'crafting_table') {
        throw new WorldError('precondition_missing', `no crafting table at ${blockKey(options.table)} (found ${table?.name ?? 'an unloaded chunk'})`);
      }
      const [recipe] = this.bot.recipesFor(itemData.id, null, 1, table);
      if (!recipe) {
        const known = recipeFor(item);
        const why = !known
          ? 'it has no crafting recipe'
          : known.needsTable && !table
            ? 'it needs a crafting table; pass one'
            : `missing ingredients (needs ${Object.entries(known.ingredients).map(([n, c]) => `${c} ${n}`).join(', ')} per craft)`;
        throw new WorldError('precondition_missing', `cannot craft ${item}: ${why}`);
      }
      const before = this.countOf(item);
      const expected = before + recipe.result.count * times;
      const done = this.bot
        .craft(recipe, times, table ?? undefined)
        .then(() => this.confirmInventory(item, (count) => count >= expected, `${expected} ${item}`));
      return {
        done,
        cancel: () => {
          if (this.bot.currentWindow) this.bot.closeWindow(this.bot.currentWindow);
        },
      };
    });
  }

  equip(item: string, destination: BodyPart, options: ActuatorOptions = {}): Promise<void> {
    return this.actuate('equip', options, () => {
      const found = this.bot.inventory.items().find((candidate) => candidate.name === item);
      if (!found) throw new WorldError('precondition_missing', `cannot equip ${item}: none in the inventory`);
      if (!this.serverTruth || !ARMOR_SLOTS.has(destination)) return { done: this.bot.equip(found, destination), cancel: () => {} };
      // mineflayer resolves once it sent the click; the armor counts as worn once
      // the server moved it out of the main inventory (what acceptance reads).
      const before = this.serverTruth.player(this.bot.username)?.inventory[item] ?? 0;
      const done = this.bot
        .equip(found, destination)
        .then(() => this.confirmInventory(item, (count) => count < before, `fewer than ${before} ${item} (one worn on the ${destination})`));
      return { done, cancel: () => {} };
    });
  }

  consume(item: string, options: ActuatorOptions = {}): Promise<void> {
    return this.actuate('consume', options, () => {
      const found = this.bot.inventory.items().find((candidate) => candidate.name === item);
      if (!found) throw new WorldError('precondition_missing', `cannot eat ${item}: none in the inventory`);
      if (this.bot.food >= 20) throw new WorldError('precondition_missing', `cannot eat ${item}: food is already full (20)`);
      const before = this.bot.food;
      const done = (async () => {
        await this.bot.equip(found, 'hand');
        // mineflayer's consume can resolve early (a held-item update ends its
        // wait), so the meal counts only once the server raised food.
        await this.bot.consume().catch(() => {});
        await waitFor(this.clock, this.confirmTimeoutMs + 2000, () => this.bot.food > before, (ready) => {
          this.bot.on('health', ready);
          return () => this.bot.removeListener('health', ready);
        }).catch(() => {
          throw new WorldError('effects_unmet', `ate ${item} but the server did not raise food above ${before}`);
        });
      })();
      return { done, cancel: () => this.bot.deactivateItem() };
    });
  }

  move(move: UnstuckMove, durationMs: number, options: ActuatorOptions = {}): Promise<void> {
    return this.actuate('move', options, () => {
      const control = MOVE_CONTROLS[move];
      this.bot.setControlState(control, true);
      let release: () => void = () => {};
      const done = new Promise<void>((resolve) => {
        const timer = this.clock.setTimeout(() => {
          this.bot.setControlState(control, false);
          resolve();
        }, durationMs);
        release = () => {
          this.clock.clearTimeout(timer);
          this.bot.setControlState(control, false);
        };
      });
      return { done, cancel: release };
    });
  }

  /** Leaves the server; if the polite quit is not answered within a second, drops the connection. */
  async close(): Promise<void> {
    if (!this.connected) return;
    const ended = new Promise<void>((resolve) => this.bot.once('end', () => resolve()));
    this.bot.quit('verbtree closing');
    const fallback = this.clock.setTimeout(() => this.bot._client.socket?.destroy(), CLOSE_GRACE_MS);
    await ended;
    this.clock.clearTimeout(fallback);
  }

  // --- plumbing ---

  /**
   * Runs one actuator command: refuses when disconnected or already aborted,
   * cancels the command's effect on abort or disconnect, and turns every
   * failure into a WorldError.
   */
  private actuate(
    what: string,
    options: ActuatorOptions,
    start: () => { done: Promise<void>; cancel: () => void },
  ): Promise<void> {
    if (!this.connected) return Promise.reject(new WorldError('world_disconnected', `cannot ${what}: the bot is disconnected`));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new WorldError('aborted', `${what} aborted before it started`));
    return new Promise<void>((resolve, reject) => {
      let command: { done: Promise<void>; cancel: () => void };
      let settled = false;
      const cleanup = () => {
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        this.onDisconnect.delete(onDisconnect);
      };
      const stopWith = (error: WorldError) => {
        if (settled) return;
        cleanup();
        command?.cancel();
        reject(error);
      };
      const onAbort = () => stopWith(new WorldError('aborted', `${what} aborted`));
      const onDisconnect = (reason: string) => stopWith(new WorldError('world_disconnected', `${what} interrupted: ${reason}`));
      try {
        command = start();
      } catch (error) {
        cleanup();
        reject(asWorldError(what, error));
        return;
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.onDisconnect.add(onDisconnect);
      command.done.then(
        () => {
          if (settled) return;
          cleanup();
          resolve();
        },
        (error: unknown) => {
          if (settled) return;
          cleanup();
          reject(asWorldError(what, error));
        },
      );
    });
  }

  private disconnected(reason: string): void {
    if (!this.connected) return;
    this.connected = false;
    for (const reject of [...this.onDisconnect]) reject(reason);
    this.events.emit('disconnected', reason);
  }

  private countOf(item: string): number {
    return this.inventory()[item] ?? 0;
  }

  /** Waits until the server (or, without server truth, the client) shows the block change. */
  private async confirmBlock(position: Vec3Like, ok: (name: string) => boolean, expectation: string): Promise<void> {
    const truth = this.serverTruth;
    const read = truth ? () => truth.blockAt(position) : async () => this.bot.blockAt(toVec3(position))?.name ?? 'unknown';
    let last = await read();
    if (ok(last)) return;
    const deadline = this.clock.now() + this.confirmTimeoutMs;
    while (this.clock.now() < deadline) {
      await this.sleep(25);
      last = await read();
      if (ok(last)) return;
    }
    throw new WorldError('effects_unmet', `expected ${expectation} but the ${truth ? 'server' : 'client'} shows ${last}`);
  }

  private async confirmInventory(item: string, ok: (count: number) => boolean, expectation: string): Promise<void> {
    const read = () => (this.serverTruth?.player(this.bot.username)?.inventory ?? this.inventory())[item] ?? 0;
    const deadline = this.clock.now() + this.confirmTimeoutMs;
    while (!ok(read())) {
      if (this.clock.now() >= deadline) {
        throw new WorldError('effects_unmet', `expected ${expectation} in the inventory but the ${this.serverTruth ? 'server' : 'client'} shows ${read()}`);
      }
      await this.sleep(25);
    }
  }

  /**
   * The server applies the bot's moves a tick or more after the client made
   * them (longer with many bots on one server), and acceptance reads the
   * server's position: wait until it stands in the client's cell. After the
   * confirm timeout, acceptance judges whatever the server shows.
   */
  private async serverCaughtUp(): Promise<void> {
    const truth = this.serverTruth;
    if (!truth) return;
    const cell = (p: Vec3Like) => `${Math.floor(p.x)},${Math.floor(p.y)},${Math.floor(p.z)}`;
    const deadline = this.clock.now() + this.confirmTimeoutMs;
    while (this.clock.now() < deadline) {
      const server = truth.player(this.bot.username);
      if (!server || cell(server.position) === cell(this.position())) return;
      await this.sleep(25);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, ms));
  }
}

function asWorldError(what: string, error: unknown): WorldError {
  if (error instanceof WorldError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new WorldError('runner_error', `${what} failed: ${message}`);
}

function toVec3(position: Vec3Like): Vec3 {
  return new Vec3(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z));
}
