import type { Clock } from '../contracts/clock.js';
import type { WorldPort } from '../contracts/world.js';
import type { StepInvoker } from '../executor/invoker.js';
import type { Planner } from '../executor/planner.js';
import type { ExecutorPolicyInput } from '../executor/policy.js';
import { assembleJournaled, type JournaledAssembly } from '../journal/journaled-executor.js';
import type { Journal } from '../journal/journal.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import type { RuntimeHooks } from '../runtime/hooks.js';
import { Rejoining, replacedLine } from '../world/mineflayer/rejoining-world.js';
import { recheckingOnReturn, type BotRuns } from './after-restart.js';
import { runResumable, type RedoableRun, type ResumableDeps } from './resumable-run.js';
import { openWorld, type OpenedWorld, type WorldChoice } from './open-world.js';
import type { WorldDescriptor } from './worlds.js';

/** The bots' names: the first is `verbtree` as a single bot always was, then verbtree-2, verbtree-3, … */
export const botName = (index: number) => (index === 0 ? 'verbtree' : `verbtree-${index + 1}`);

export interface AssembledBot {
  name: string;
  assembly: JournaledAssembly;
  /** Its world as opened (before the journal's action trace wraps it): a real bot's raw handle is reached here. */
  world: WorldPort;
}

export interface AssembledBots {
  bots: AssembledBot[];
  close(): Promise<void>;
}

export interface AssembleBotsOptions {
  count: number;
  first: OpenedWorld;
  choice: WorldChoice;
  registry: CapabilityRegistry;
  extraTreePaths: readonly string[];
  journal: Journal;
  clock: Clock;
  /** Each bot's name by its index; default botName (verbtree, verbtree-2, …). */
  name?: (index: number) => string;
  /** What kind of process runs them, as the journal's runners table shows it (`serve`, `mcp`). */
  kind: string;
  policy?: ExecutorPolicyInput;
  planner?: Planner;
  /** Tree observers for one bot, by its name (the API's node feed). */
  hooksFor?: (name: string) => RuntimeHooks | undefined;
  /** Wraps each bot's tree invoker, e.g. to inject faults. */
  wrapInvoker?: (invoker: StepInvoker) => StepInvoker;
  /** Where a bot's outages and returns are said. */
  note?: (line: string) => void;
  /** How far back a restart's re-check reaches when the server does not say when it saved (--recheck-window-ms). */
  recheckWindowMs?: number;
}

/**
 * `count` bots, each with its own journaled executor on the one journal: what `serve` and `mcp` drive. Where the
 * world's row says they share it (`bots` in src/cli/worlds/) they meet in one world: the embedded server connects
 * each, a remote server is joined again under each name; SimWorld holds one bot, so each SimWorld bot gets its own
 * world from the same seed and scenario. A bot whose assembly fails closes what was opened for it and the bots
 * before it.
 */
export async function assembleBots(options: AssembleBotsOptions): Promise<AssembledBots> {
  const served: { bot: AssembledBot; closeWorld?: () => Promise<void> }[] = [];
  const close = async () => {
    for (const { bot, closeWorld } of [...served].reverse()) {
      await bot.assembly.close();
      await closeWorld?.();
    }
  };
  try {
    for (let i = 0; i < options.count; i++) {
      const name = (options.name ?? botName)(i);
      const runs: BotRuns & { running: Map<string, RedoableRun> } = { running: new Map() };
      const opened = await worldFor(i, name, options);
      const { world, descriptor, closeWorld } = rejoinable(name, opened, options, runs);
      const hooks = options.hooksFor?.(name);
      const journaled = await assembleJournaled({
        registry: options.registry,
        extraTreePaths: options.extraTreePaths,
        world,
        clock: options.clock,
        journal: options.journal,
        kind: options.kind,
        policy: options.policy ?? {},
        worldDescriptor: descriptor,
        ...(hooks ? { hooks } : {}),
        ...(options.planner ? { planner: options.planner } : {}),
        ...(options.wrapInvoker ? { wrapInvoker: options.wrapInvoker } : {}),
      }).catch(async (error: unknown) => {
        // Its own world (a SimWorld of its own) is not yet in `served` to be closed with the rest.
        await closeWorld?.();
        throw error;
      });
      runs.runnerId = journaled.process.id;
      const assembly = keepingRuns(journaled, runs.running, {
        registry: options.registry,
        kind: options.kind,
        clock: options.clock,
        bot: name,
        say: options.note ?? (() => undefined),
      });
      served.push({ bot: { name, assembly, world }, ...(closeWorld ? { closeWorld } : {}) });
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { bots: served.map((s) => s.bot), close };
}

type BotWorld = { world: WorldPort; descriptor: WorldDescriptor; closeWorld?: () => Promise<void> };

/**
 * The assembly with each plan it runs kept in `running` by its id until it ends, each one resumable (runResumable):
 * what a rollback's check sends back to redo what the restart undid.
 */
function keepingRuns(
  assembly: JournaledAssembly,
  running: Map<string, RedoableRun>,
  deps: Omit<ResumableDeps, 'assembly'>,
): JournaledAssembly {
  return {
    ...assembly,
    async run(input, runOptions = {}) {
      if (!('planId' in input) || typeof input.planId !== 'string') return assembly.run(input, runOptions);
      const { planId } = input;
      const run = await runResumable({ ...input, planId }, runOptions, { ...deps, assembly });
      running.set(planId, run);
      void run.result.catch(() => undefined).finally(() => running.get(planId) === run && running.delete(planId));
      return run;
    },
  };
}

/**
 * A bot on a remote server keeps its place across the server's restarts: it joins again under its name with backoff
 * (Rejoining), its steps waiting within their deadlines, and after a restart its successes are checked against the
 * world that came back as a worker's are (recheckingOnReturn). The embedded server and SimWorld live in this process:
 * they cannot go away without it.
 */
function rejoinable(name: string, opened: BotWorld, options: AssembleBotsOptions, runs: BotRuns): BotWorld {
  if (options.choice.world !== 'remote') return opened;
  const say = options.note ?? (() => undefined);
  const first = { world: opened.world, close: opened.closeWorld ?? (() => Promise.resolve()) };
  const { journal, clock } = options;
  const rejoining = new Rejoining(first, {
    clock,
    join: () => openWorld({ ...options.choice, username: name }),
    ...recheckingOnReturn(name, {
      journal,
      clock,
      say,
      runs,
      registry: options.registry,
      ...(options.recheckWindowMs === undefined ? {} : { recheckWindowMs: options.recheckWindowMs }),
    }),
    onLost: (reason) => say(`${name}: the server went away (${reason}); joining again with backoff`),
    onRejoined: (awayMs) => say(`${name}: back on the server after ${awayMs} ms away; its world is read again`),
    onReplaced: (reason) => say(`${name}: ${replacedLine(reason)}`),
  });
  return { world: rejoining.world, descriptor: opened.descriptor, closeWorld: () => rejoining.close() };
}

async function worldFor(
  index: number,
  name: string,
  options: { first: OpenedWorld; choice: WorldChoice },
): Promise<BotWorld> {
  if (index === 0) return { world: options.first.world, descriptor: options.first.descriptor };
  if (options.first.connectBot) return options.first.connectBot(name);
  const own = await openWorld({ ...options.choice, username: name });
  return { world: own.world, descriptor: own.descriptor, closeWorld: () => own.close() };
}
