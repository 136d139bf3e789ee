import { EventEmitter } from 'eventemitter3';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { Clock } from '../../contracts/clock.js';
import type {
  BlockQuery,
  ActuatorOptions,
  AttackOptions,
  BlockInfo,
  BodyPart,
  EntityInfo,
  EntityKind,
  NavigationGoal,
  Observation,
  ObservationQuery,
  Recipe,
  UnstuckMove,
  Vec3Like,
  WorldEvents,
  WorldPort,
} from '../../contracts/world.js';
import { WorldError } from '../../contracts/world.js';
import { systemClock } from '../../clock/index.js';
import { recipeFor } from '../recipes.js';
import type { BotContext } from './bot-context.js';
import type { BotHandle } from './bot-handle.js';
import { botOf } from './bot-of.js';
import { CommandRunner } from './command-runner.js';
import { watchDeaths } from './death-watch.js';
import { serverCaughtUp } from './confirm.js';
import { startConsume } from './consume-command.js';
import { startChat, startToss } from './toss-chat-commands.js';
import { startAttack } from './attack-command.js';
import { startSleep } from './sleep-command.js';
import { startActivate } from './activate-command.js';
import { startSmelt, startTransfer } from './container-commands.js';
import { startCraft } from './craft-command.js';
import { startDig, useVanillaDigTime } from './dig-command.js';
import { startEquip } from './equip-command.js';
import { keepAfloat } from './keep-afloat.js';
import { leaveHazard } from './leave-hazard.js';
import { loadMineflayer } from './load-mineflayer.js';
import { startMove } from './move-command.js';
import { navigate } from './navigate.js';
import { blockInfo, botPosition, inventoryCounts, observe, visibleEntities } from './observe.js';
import { findBlocksInChunks } from './find-blocks.js';
import { ScopedPathfinder } from './pathfinder-setup.js';
import { startPlace } from './place-command.js';
import type { ServerTruth } from './server-truth.js';
import type { ServerMark } from '../server-mark.js';
import { serverMarkOf } from './server-marks.js';

export type { ServerTruth } from './server-truth.js';

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
/** mineflayer's oxygenLevel is the server's air (ticks) / 15, rounded: 20 when full. */
const AIR_PER_OXYGEN_LEVEL = 15;
/** Lava takes 20 health in 2.5 s: a bot not out by then is not getting out on foot. */
const LEAVE_HAZARD_MS = 3000;

/**
 * WorldPort over a real mineflayer bot with mineflayer-pathfinder. `B` is the
 * type of the bot given (mineflayer's `Bot` when you pass one; see BotHandle).
 */
export class MineflayerWorld<B extends BotHandle = BotHandle> implements WorldPort {
  readonly kind = 'mineflayer';
  readonly events = new EventEmitter<WorldEvents>();
  private readonly context: BotContext;
  private readonly runner = new CommandRunner();
  private readonly stallTimeoutMs: number;
  private readonly pathfinder: ScopedPathfinder;

  /**
   * Wraps a connected bot. It leaves the bot's own pathfinder settings as they
   * are (verbtree's apply only during its own goto calls) and adds no error
   * handler; it does load the pathfinder plugin when the bot has none.
   */
  constructor(
    readonly bot: B,
    options: MineflayerWorldOptions = {},
  ) {
    this.context = {
      bot: botOf(this),
      clock: options.clock ?? systemClock,
      serverTruth: options.serverTruth ?? null,
      confirmTimeoutMs: options.confirmTimeoutMs ?? 2000,
    };
    this.stallTimeoutMs = options.stallTimeoutMs ?? 4000;
    this.pathfinder = new ScopedPathfinder(this.context.bot, options.searchRadius ?? 48);
    this.watch(this.context.bot);
    useVanillaDigTime(this.context.bot);
    keepAfloat(this.context.bot);
  }

  private watch(bot: Bot): void {
    let lastHealth = bot.health;
    bot.on('health', () => {
      if (bot.health < lastHealth) this.events.emit('hurt', bot.health);
      lastHealth = bot.health;
    });
    watchDeaths(bot, this.runner, (death) => this.events.emit('died', death));
    bot.once('end', (reason) => this.disconnected(`connection ended: ${reason}`));
    bot.once('kicked', (reason) =>
      this.disconnected(`kicked: ${typeof reason === 'string' ? reason : JSON.stringify(reason)}`),
    );
  }

  isConnected(): boolean {
    return this.runner.connected;
  }

  /** Which server the session joined and how old its world is, for a rejoin to tell a restart (Rejoining). */
  serverMark(): ServerMark {
    return serverMarkOf(this.context.bot);
  }

  // --- observations ---

  position(): Vec3Like {
    return botPosition(this.context.bot);
  }

  health(): number {
    return this.context.bot.health;
  }

  food(): number {
    return this.context.bot.food;
  }

  /** Ticks of air left, as the server last told the client (mineflayer keeps it in twentieths: oxygenLevel). */
  air(): number {
    return Math.round(this.context.bot.oxygenLevel * AIR_PER_OXYGEN_LEVEL);
  }

  inventory(): Record<string, number> {
    return inventoryCounts(this.context.bot);
  }

  /** The armour slots (5 to 8 of the player's window: head, torso, legs, feet), as the server last sent them. */
  worn(): string[] {
    const { slots } = this.context.bot.inventory;
    return [5, 6, 7, 8].flatMap((slot) => {
      const item = slots[slot];
      return item ? [item.name] : [];
    });
  }

  heldItem(): string | null {
    return this.context.bot.heldItem?.name ?? null;
  }

  blockAt(position: Vec3Like): BlockInfo | null {
    this.refuseWhileDisconnected('blockAt');
    return blockInfo(this.context.bot, position);
  }

  findBlocks(query: BlockQuery): Vec3Like[] {
    this.refuseWhileDisconnected('findBlocks');
    return findBlocksInChunks(this.context.bot, query);
  }

  entities(kinds?: readonly EntityKind[]): EntityInfo[] {
    return visibleEntities(this.context.bot, kinds);
  }

  recipe(item: string): Recipe | null {
    return recipeFor(item, inventoryCounts(this.context.bot));
  }

  /**
   * The world as the server (or, without its truth, the client) shows it; refused as world_disconnected when the
   * connection is down at its start or dropped before it ended: a dead connection's cache (chunks a closing client
   * may already have dropped, blocks a restarted server may have rolled back) is no fact about the world.
   */
  async observe(query: ObservationQuery = {}): Promise<Observation> {
    this.refuseWhileDisconnected('observe');
    const observation = await observe(this.context, query);
    this.refuseWhileDisconnected('observe');
    return observation;
  }

  /**
   * Resolves once the chunks around the bot are loaded (a fresh join's view of the world is whole), within
   * `timeoutMs`; rejects past it or when the connection drops first.
   */
  worldLoaded(timeoutMs = 10_000): Promise<void> {
    const { bot, clock } = this.context;
    return new Promise((resolve, reject) => {
      const timer = clock.setTimeout(
        () =>
          reject(new WorldError('world_unresponsive', `the chunks around the bot did not load within ${timeoutMs} ms`)),
        timeoutMs,
      );
      bot.waitForChunksToLoad().then(
        () => {
          clock.clearTimeout(timer);
          if (this.runner.connected) resolve();
          else reject(new WorldError('world_disconnected', 'the connection dropped while the world loaded'));
        },
        (error: unknown) => {
          clock.clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  // --- actuators ---

  goto(goal: NavigationGoal, options: ActuatorOptions = {}): Promise<void> {
    const { goals } = loadMineflayer().pathfinder;
    return this.runner.run('goto', options, () => {
      let cancelled = false;
      let stopWalk = () => {};
      // Out of lava (or fire) first: pathfinder cannot swim out of it.
      const out = leaveHazard(this.context.bot, this.context.clock, LEAVE_HAZARD_MS);
      const walked = out.done.then(() => {
        if (cancelled) return;
        const restore = this.pathfinder.apply();
        const walk = navigate(this.context.bot, goal, {
          goals,
          clock: this.context.clock,
          stallTimeoutMs: this.stallTimeoutMs,
          onStatus: (status, why) => this.events.emit('path', status, why),
        });
        stopWalk = () => {
          walk.stop();
          restore();
        };
        return walk.done.finally(restore);
      });
      return {
        done: walked.then(() => serverCaughtUp(this.context)),
        cancel: () => {
          cancelled = true;
          out.stop();
          stopWalk();
        },
      };
    });
  }

  stopMovement(): void {
    this.context.bot.pathfinder.stop();
    this.context.bot.pathfinder.setGoal(null);
    this.context.bot.clearControlStates();
  }

  dig(position: Vec3Like, options: ActuatorOptions = {}): Promise<void> {
    return this.runner.run('dig', options, () => startDig(this.context, position));
  }

  place(position: Vec3Like, item: string, options: ActuatorOptions = {}): Promise<void> {
    return this.runner.run('place', options, () => startPlace(this.context, position, item));
  }

  craft(item: string, times: number, options: ActuatorOptions & { table?: Vec3Like | null } = {}): Promise<void> {
    return this.runner.run('craft', options, () => startCraft(this.context, item, times, options.table));
  }

  equip(item: string, destination: BodyPart, options: ActuatorOptions = {}): Promise<void> {
    return this.runner.run('equip', options, () => startEquip(this.context, item, destination));
  }

  consume(item: string, options: ActuatorOptions = {}): Promise<void> {
    return this.runner.run('consume', options, () => startConsume(this.context, item));
  }

  move(move: UnstuckMove, durationMs: number, options: ActuatorOptions = {}): Promise<void> {
    return this.runner.run('move', options, () => startMove(this.context, move, durationMs));
  }

  toss(item: string, count: number, options: ActuatorOptions = {}): Promise<void> {
    return this.runner.run('toss', options, () => startToss(this.context, item, count));
  }

  chat(message: string, options: ActuatorOptions = {}): Promise<void> {
    return this.runner.run('chat', options, () => startChat(this.context, message));
  }

  smelt(furnace: Vec3Like, input: string, count: number, fuel: string, options: ActuatorOptions = {}): Promise<void> {
    return this.runner.run('smelt', options, () => startSmelt(this.context, furnace, input, count, fuel));
  }

  deposit(container: Vec3Like, item: string, count: number, options: ActuatorOptions = {}): Promise<void> {
    return this.runner.run('deposit', options, () => startTransfer(this.context, 'deposit', container, item, count));
  }

  withdraw(container: Vec3Like, item: string, count: number, options: ActuatorOptions = {}): Promise<void> {
    return this.runner.run('withdraw', options, () => startTransfer(this.context, 'withdraw', container, item, count));
  }

  attack(entityId: number, options: AttackOptions = {}): Promise<void> {
    return this.runner.run('attack', options, () => startAttack(this.context, entityId, options));
  }

  sleep(bed: Vec3Like, options: ActuatorOptions = {}): Promise<void> {
    return this.runner.run('sleep', options, () => startSleep(this.context, bed));
  }

  activate(block: Vec3Like, options: ActuatorOptions & { item?: string } = {}): Promise<void> {
    return this.runner.run('activate', options, () => startActivate(this.context, block, options.item));
  }

  look(at: Vec3Like, options: ActuatorOptions = {}): Promise<void> {
    return this.runner.run('look', options, () => ({
      done: this.context.bot.lookAt(new Vec3(at.x, at.y, at.z), true),
      cancel: () => undefined,
    }));
  }

  native(
    command: string,
    act: (handle: unknown, signal: AbortSignal) => Promise<void>,
    options: ActuatorOptions = {},
  ): Promise<void> {
    return this.runner.run(command, options, () => {
      const cancel = new AbortController();
      return { done: act(this.context.bot, cancel.signal), cancel: () => cancel.abort() };
    });
  }

  /** Leaves the server; if the polite quit is not answered within a second, drops the connection. */
  async close(): Promise<void> {
    if (!this.runner.connected) return;
    const { clock } = this.context;
    const ended = new Promise<void>((resolve) => this.context.bot.once('end', () => resolve()));
    this.context.bot.quit('verbtree closing');
    const fallback = clock.setTimeout(() => this.context.bot._client.socket?.destroy(), CLOSE_GRACE_MS);
    await ended;
    clock.clearTimeout(fallback);
  }

  private refuseWhileDisconnected(what: string): void {
    if (!this.runner.connected)
      throw new WorldError(
        'world_disconnected',
        `${what}: the bot is disconnected; its cache is no fact about the world`,
      );
  }

  private disconnected(reason: string): void {
    if (this.runner.disconnect(reason)) this.events.emit('disconnected', reason);
  }
}
