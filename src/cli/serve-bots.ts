import { apiBot, type ApiBot } from '../api/bots.js';
import type { ExecutorPolicyInput } from '../executor/policy.js';
import type { NodeFeed } from '../api/node-feed.js';
import type { RunInput, ExecutionRun } from '../executor/executor.js';
import type { Planner } from '../executor/planner.js';
import type { JournaledAssembly } from '../journal/journaled-executor.js';
import type { Journal } from '../journal/journal.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import type { Clock } from '../contracts/clock.js';
import { assembleBots } from './assemble-bots.js';
import type { OpenedWorld, WorldChoice } from './open-world.js';
import { viewerBotFor } from './viewer-bot.js';

export { botName } from './assemble-bots.js';

export interface ServedBots {
  bots: ApiBot[];
  assemblies: JournaledAssembly[];
  close(): Promise<void>;
}

/**
 * `count` bots for `serve` (assembleBots), each feeding the one node feed, with a 3D view for a real bot and every
 * run tracked so a stop can cancel it.
 */
export async function serveBots(options: {
  count: number;
  first: OpenedWorld;
  choice: WorldChoice;
  registry: CapabilityRegistry;
  extraTreePaths: readonly string[];
  journal: Journal;
  clock: Clock;
  /** The server's one node feed: each bot's executor feeds it through its own hooks. */
  nodeFeed: NodeFeed;
  note: (line: string) => void;
  track: (run: ExecutionRun) => ExecutionRun;
  signal: AbortSignal;
  /** The policy's combat settings (--combat, --fight-health-floor, the project config's safety). */
  combat?: Pick<ExecutorPolicyInput, 'safety'>;
  /** The bots' planner: a failed step's escalation (serve --escalate-to-client holds it for the clients). */
  planner?: Planner;
  /** How long the executor waits for that planner. */
  plannerTimeoutMs?: number;
  /** --recheck-window-ms: how far back a restart's re-check reaches on a server that does not say when it saved. */
  recheckWindowMs?: number;
}): Promise<ServedBots> {
  const { plannerTimeoutMs } = options;
  const assembled = await assembleBots({
    ...options,
    kind: 'serve',
    policy: {
      seed: options.choice.seed,
      ...options.combat,
      ...(plannerTimeoutMs ? { escalation: { plannerTimeoutMs } } : {}),
    },
    hooksFor: (name) => options.nodeFeed.hooksFor(name),
  });
  const bots = assembled.bots.map(({ name, assembly, world }, i) => {
    const viewerBot = viewerBotFor(world, i === 0 ? options.note : () => undefined);
    return apiBot(name, assembly, {
      ...(viewerBot ? { viewerBot } : {}),
      run: async (input: unknown) => options.track(await assembly.run(input as RunInput, { signal: options.signal })),
    });
  });
  return { bots, assemblies: assembled.bots.map((b) => b.assembly), close: () => assembled.close() };
}
