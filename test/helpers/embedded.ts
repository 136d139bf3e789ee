import { afterAll, beforeAll } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { SystemClock } from '../../src/clock/index.js';
import type { Death, WorldPort } from '../../src/contracts/world.js';
import { assembleLoaded, loadTrees } from '../../src/executor/assemble.js';
import type { ExecutorEvent, PlanResult } from '../../src/executor/events.js';
import type { RuntimeHooks } from '../../src/runtime/hooks.js';
import { startEmbeddedWorld, type EmbeddedServer, type EmbeddedWorld } from '../../src/world/embedded/index.js';
import type { MineflayerWorld, MineflayerWorldOptions } from '../../src/world/mineflayer/index.js';
import { parseScenario, type ScenarioInput } from '../../src/world/scenario/index.js';

export interface PlanStepInput {
  stepId: string;
  type: string;
  args: Record<string, unknown>;
}

export interface ServerRun {
  result: PlanResult;
  events: ExecutorEvent[];
  bot: MineflayerWorld;
  /**
   * The bot's deaths from its join on, still filling while it stays connected (`deathsOf`): a test that the bot lives
   * expects this empty, never its health at the end, since a dead bot respawns at 20.
   */
  deaths: Death[];
}

/**
 * Every death of the bot from now on, as its world reports it (`died`), in a list that fills while the bot is
 * connected. On the embedded server this is the server's own word: flying-squid keeps no death of its own (its
 * `updateHealth` stores a health and sends it), every health the server sets reaches the client in order as an
 * `update_health` packet, and mineflayer's `death` is the first 0 among them, however soon the respawn follows (a
 * poll of the server's health every 50 ms, as `watchLowestHealth`, misses most: the server held a killed bot at 0 for
 * 7 to 44 ms before its respawn).
 * `test/executor/death-server.test.ts` holds the world to it.
 */
export function deathsOf(world: Pick<WorldPort, 'events'>): Death[] {
  const deaths: Death[] = [];
  world.events.on('died', (death) => deaths.push(death));
  return deaths;
}

export interface RunOptions {
  bot?: MineflayerWorldOptions;
  /** Sees every executor event as it happens, e.g. to act on the server mid-step. */
  onEvent?: (event: ExecutorEvent) => void;
  /** The tree runtime's hooks, e.g. `progress` of a long step. */
  hooks?: RuntimeHooks;
  /** Sees the bot once it has joined, before the plan runs (awaited), e.g. to slow what reaches it. */
  joined?: (bot: MineflayerWorld) => void | Promise<void>;
}

export interface EmbeddedSuite {
  /** The server's truth: blockAt, player(name).inventory/food/position. */
  readonly server: EmbeddedServer;
  readonly world: EmbeddedWorld;
  /**
   * Connects a bot named `username` (each test its own name: every bot spawns
   * at the scenario's spawn with its inventory) and runs the steps through the
   * default registry's executor on real time. The bot stays connected so the
   * server's view of it can be checked; the suite stops it with the server.
   */
  run(username: string, steps: PlanStepInput[], options?: RunOptions): Promise<ServerRun>;
}

/**
 * One embedded flying-squid server for the calling test file, started in
 * beforeAll from a superflat scenario (grass at y=4, bots stand at y=5) and
 * stopped in afterAll. Trees are loaded once and shared by every bot's executor.
 */
export function embeddedSuite(scenario: Omit<ScenarioInput, 'name'> & { name?: string }): EmbeddedSuite {
  let world: EmbeddedWorld | undefined;
  let loaded: Awaited<ReturnType<typeof loadTrees>> | undefined;
  const registry = createDefaultRegistry();
  const clock = new SystemClock();

  beforeAll(async () => {
    loaded = await loadTrees(registry);
    world = await startEmbeddedWorld({ scenario: parseScenario({ name: 'server-test', ...scenario }), clock });
  });

  afterAll(async () => {
    await world?.stop();
  });

  const started = (): EmbeddedWorld => {
    if (!world)
      throw new Error(
        'the embedded server is not running: call embeddedSuite() at the top of a test file, outside any test',
      );
    return world;
  };

  return {
    get server() {
      return started().server;
    },
    get world() {
      return started();
    },
    async run(username, steps, options = {}) {
      const bot = await started().connectBot(username, options.bot);
      const deaths = deathsOf(bot);
      await options.joined?.(bot);
      const { executor, runner } = assembleLoaded({
        registry,
        world: bot,
        clock,
        loaded: loaded!,
        ...(options.hooks ? { hooks: options.hooks } : {}),
      });
      const events: ExecutorEvent[] = [];
      executor.events.on('event', (event) => {
        events.push(event);
        options.onEvent?.(event);
      });
      try {
        const result = await executor.run({ planId: `plan-${username}`, intentId: `intent-${username}`, steps }).result;
        return { result, events, bot, deaths };
      } finally {
        await runner.shutdown();
      }
    },
  };
}
