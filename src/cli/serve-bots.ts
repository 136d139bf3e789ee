import { apiBot, type ApiBot } from '../api/bots.js';
import type { NodeFeed } from '../api/node-feed.js';
import type { WorldPort } from '../contracts/world.js';
import type { RunInput, ExecutionRun } from '../executor/executor.js';
import { assembleJournaled, type JournaledAssembly } from '../journal/journaled-executor.js';
import type { Journal } from '../journal/journal.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import type { Clock } from '../contracts/clock.js';
import { openWorld, type OpenedWorld, type WorldChoice } from './open-world.js';
import { viewerBotFor } from './viewer-bot.js';
import type { WorldDescriptor } from './worlds.js';

/** The bots' names: the first is `verbtree` as a single bot always was, then verbtree-2, verbtree-3, … */
export const botName = (index: number) => (index === 0 ? 'verbtree' : `verbtree-${index + 1}`);

export interface ServedBots {
  bots: ApiBot[];
  assemblies: JournaledAssembly[];
  close(): Promise<void>;
}

/**
 * `count` bots for `serve`, each with its own journaled executor on the one journal, feeding the one node feed. On the embedded
 * server they share its world; SimWorld holds one bot, so each SimWorld bot gets its own world from the same
 * seed and scenario.
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
}): Promise<ServedBots> {
  const { first } = options;
  const served: { assembly: JournaledAssembly; close?: () => Promise<void> }[] = [];
  const bots: ApiBot[] = [];
  const close = async () => {
    for (const { assembly, close: closeWorld } of [...served].reverse()) {
      await assembly.close();
      await closeWorld?.();
    }
  };
  try {
    for (let i = 0; i < options.count; i++) {
      const name = botName(i);
      const { world, descriptor, closeWorld } = await worldFor(i, name, options);
      const assembly = await assembleJournaled({
        registry: options.registry,
        extraTreePaths: options.extraTreePaths,
        world,
        clock: options.clock,
        journal: options.journal,
        kind: 'serve',
        policy: { seed: options.choice.seed },
        worldDescriptor: descriptor,
        hooks: options.nodeFeed.hooksFor(name),
      }).catch(async (error: unknown) => {
        // Its own world (a SimWorld of its own) is not yet in `served` to be closed with the rest.
        await closeWorld?.();
        throw error;
      });
      served.push({ assembly, ...(closeWorld ? { close: closeWorld } : {}) });
      const viewerBot = viewerBotFor(world, i === 0 ? options.note : () => undefined);
      bots.push(
        apiBot(name, assembly, {
          ...(viewerBot ? { viewerBot } : {}),
          run: (input: unknown) => options.track(assembly.run(input as RunInput, { signal: options.signal })),
        }),
      );
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { bots, assemblies: served.map((s) => s.assembly), close };
}

async function worldFor(
  index: number,
  name: string,
  options: { first: OpenedWorld; choice: WorldChoice },
): Promise<{ world: WorldPort; descriptor: WorldDescriptor; closeWorld?: () => Promise<void> }> {
  if (index === 0) return { world: options.first.world, descriptor: options.first.descriptor };
  if (options.first.connectBot) return options.first.connectBot(name);
  const own = await openWorld({ ...options.choice, username: name });
  return { world: own.world, descriptor: own.descriptor, closeWorld: () => own.close() };
}
