import type { Clock } from '../contracts/clock.js';
import type { Journal } from '../journal/journal.js';
import { LeaseHeldError, PlanLease } from '../journal/lease.js';
import { CliUsageError } from './io.js';
import type { WorldChoice } from './open-world.js';

/**
 * Which bots on a shared server a process drives: a bot's name on one server, as a lease key. A bot in this
 * process's own world (SimWorld, the embedded server it starts) cannot be driven by another process, so only a
 * remote server's bots are held.
 */
export function botKeys(choice: WorldChoice, names: readonly string[]): string[] {
  if (choice.world !== 'remote' || !choice.host) return [];
  return names.map((name) => `bot:${name}@${choice.host}:${choice.port ?? 25565}`);
}

export interface BotHold {
  release(): Promise<void>;
}

/**
 * Holds each bot before it connects, one process per bot: a second process started for a bot another one holds
 * (an LLM client starting its server twice) is refused naming the holder, instead of the two bots kicking each
 * other off the server. The hold is a row of the journal's lease table under a `bot:` key, taken, renewed and
 * taken over (its holder gone, or silent past the lease's limit) as a plan's lease is (src/journal/lease.ts);
 * so processes share the hold through their journal. `onLost` is called if another process takes one over.
 */
export async function holdBots(
  journal: Journal,
  keys: readonly string[],
  options: { clock: Clock; kind: string; onLost: (key: string, by: string) => void },
): Promise<BotHold> {
  const held: PlanLease[] = [];
  const release = async () => {
    for (const lease of held.splice(0)) await lease.release();
  };
  for (const key of keys) {
    try {
      held.push(
        await PlanLease.acquire(journal, key, {
          clock: options.clock,
          kind: options.kind,
          onLost: (by) => options.onLost(key, by),
        }),
      );
    } catch (error) {
      await release();
      if (error instanceof LeaseHeldError) throw new CliUsageError(await heldBy(journal, key, error));
      throw error;
    }
  }
  return { release };
}

async function heldBy(journal: Journal, key: string, error: LeaseHeldError): Promise<string> {
  const holder = await journal.planLeaseHolder(key);
  if (!holder) return error.message;
  const [name, server] = key.slice('bot:'.length).split('@');
  return (
    `bot "${name}" on ${server} is already driven by pid ${holder.pid} on ${holder.host} (verbtree ${holder.kind}, since ${new Date(holder.acquired_at).toISOString()}): ` +
    'two processes with one bot would kick each other off the server. Use that one (an MCP client may have started it already), stop it, or give this one another --username'
  );
}
