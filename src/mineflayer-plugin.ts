/**
 * verbtree as a mineflayer plugin, on a bot you create yourself.
 *
 * @module verbtree/mineflayer
 */
import type { Bot } from 'mineflayer';
import { createDefaultRegistry } from '../capabilities/index.js';
import type { Clock } from './contracts/clock.js';
import { assembleExecutor, type Assembly } from './executor/assemble.js';
import type { ExecutorEvent, ExecutorEventType, PlanResult } from './executor/events.js';
import type { ExecutionRun, ExecutorOptions, RunInput } from './executor/executor.js';
import type { CapabilityRegistry } from './registry/registry.js';
import type { RuntimeHooks } from './runtime/hooks.js';
import { systemClock } from './clock/system-clock.js';
import { MineflayerWorld, type MineflayerWorldOptions } from './world/mineflayer/index.js';
import { Rejoining } from './world/mineflayer/rejoining-world.js';
export { botOf } from './world/mineflayer/bot-of.js';

/*
 * verbtree as a mineflayer plugin: `bot.loadPlugin(verbtree())` gives the
 * bot `bot.verbtree.run(plan)`, and every executor event is emitted on the bot
 * as `verbtree:<type>` (e.g. `verbtree:step.ended`) beside the typed stream.
 * The bot stays the user's: verbtree's pathfinder settings apply only during
 * its own walks, and it adds no error handler of its own.
 */

export interface VerbtreePluginOptions {
  /** The capabilities the bot can run; default: verbtree's built-in verbs. */
  registry?: CapabilityRegistry;
  /** Folders or files of tree definitions; default: the package's trees/. */
  treePaths?: readonly string[];
  clock?: Clock;
  policy?: ExecutorOptions['policy'];
  planner?: ExecutorOptions['planner'];
  stuck?: ExecutorOptions['stuck'];
  recovery?: ExecutorOptions['recovery'];
  hooks?: RuntimeHooks;
  /** How the bot is read and driven (server truth, stall and confirm timeouts). */
  world?: MineflayerWorldOptions;
  /**
   * Makes the bot again, as you made this one (mineflayer.createBot under the same name), for when its connection
   * ends (the server restarted, a kick): verbtree then calls it with backoff until a new bot spawns and has read its
   * world, and drives that one, its steps waiting within their deadlines. Events stay on the first bot, and
   * `bot.verbtree.world` is the new bot's world. Without it, a bot whose connection ended stays down and its steps
   * fail world_disconnected.
   */
  rejoin?: () => Bot | Promise<Bot>;
}

export interface BotVerbtree {
  /** Resolves once the bot has spawned and the trees are loaded; rejects when the trees do not load. */
  readonly ready: Promise<Assembly>;
  readonly registry: CapabilityRegistry;
  /** The bot as verbtree's world port sees it; null until the bot has spawned. */
  readonly world: MineflayerWorld | null;
  /** Starts a plan (or intent) once ready: iterate its events, await its result. */
  start(planOrIntent: RunInput, options?: { signal?: AbortSignal }): Promise<ExecutionRun>;
  /** Runs a plan (or intent) to its end. */
  run(planOrIntent: RunInput, options?: { signal?: AbortSignal }): Promise<PlanResult>;
}

/** Events the plugin emits on the bot, one per executor event type. */
export type VerbtreeBotEvents = {
  [K in ExecutorEventType as `verbtree:${K}`]: (event: Extract<ExecutorEvent, { type: K }>) => void;
};

declare module 'mineflayer' {
  interface Bot {
    verbtree: BotVerbtree;
  }
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges verbtree's events into the bot's
  interface BotEvents extends VerbtreeBotEvents {}
}

export function verbtree(options: VerbtreePluginOptions = {}): (bot: Bot) => void {
  return (bot) => {
    const registry = options.registry ?? createDefaultRegistry();
    let world: MineflayerWorld | null = null;
    const spawned = bot.entity ? Promise.resolve() : new Promise<void>((resolve) => bot.once('spawn', () => resolve()));
    const worldOptions = { ...options.world, ...(options.clock ? { clock: options.clock } : {}) };
    const ready = spawned.then(async () => {
      world = new MineflayerWorld(bot, worldOptions);
      const rejoin = options.rejoin;
      const port = rejoin
        ? new Rejoining(session(world), {
            clock: options.clock ?? systemClock,
            join: async () => {
              const next = new MineflayerWorld(await spawnedBot(await rejoin()), worldOptions);
              world = next;
              return session(next);
            },
          }).world
        : world;
      const assembly = await assembleExecutor({
        registry,
        world: port,
        ...(options.treePaths ? { treePaths: options.treePaths } : {}),
        ...(options.clock ? { clock: options.clock } : {}),
        ...(options.policy ? { policy: options.policy } : {}),
        ...(options.planner ? { planner: options.planner } : {}),
        ...(options.stuck ? { stuck: options.stuck } : {}),
        ...(options.recovery ? { recovery: options.recovery } : {}),
        ...(options.hooks ? { hooks: options.hooks } : {}),
      });
      const emit = bot.emit.bind(bot) as (name: string, event: ExecutorEvent) => boolean;
      assembly.executor.events.on('event', (event) => emit(`verbtree:${event.type}`, event));
      return assembly;
    });
    // A rejected `ready` nobody awaits yet must not crash the user's process; start() rethrows it.
    ready.catch(() => undefined);
    const start = async (planOrIntent: RunInput, runOptions?: { signal?: AbortSignal }) =>
      (await ready).executor.run(planOrIntent, runOptions);
    bot.verbtree = {
      ready,
      registry,
      get world() {
        return world;
      },
      start,
      run: async (planOrIntent, runOptions) => (await start(planOrIntent, runOptions)).result,
    };
  };
}

const session = (world: MineflayerWorld) => ({ world, close: () => world.close() });

/**
 * The bot once it has spawned; rejects when its connection fails or ends first (the server is still away). Its
 * error listener lives only until then: a refused connection must not crash the process, and a spawned bot is the
 * user's, with no handler of verbtree's.
 */
function spawnedBot(bot: Bot): Promise<Bot> {
  // A factory may hand over a bot that has spawned already (as the first one may be).
  if (bot.entity) return Promise.resolve(bot);
  return new Promise((resolve, reject) => {
    const failed = (why: unknown) => {
      done();
      // A bot that never spawned is verbtree's to drop: its later errors go nowhere.
      bot.on('error', () => undefined);
      bot.end();
      reject(new Error(`the bot did not spawn: ${why instanceof Error ? why.message : String(why)}`));
    };
    const spawned = () => {
      done();
      resolve(bot);
    };
    const done = () => {
      bot.removeListener('error', failed);
      bot.removeListener('end', failed);
      bot.removeListener('spawn', spawned);
    };
    bot.on('error', failed);
    bot.on('end', failed);
    bot.on('spawn', spawned);
  });
}
