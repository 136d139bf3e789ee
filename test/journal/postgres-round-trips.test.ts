import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { systemClock } from '../../src/clock/index.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import type { Journal } from '../../src/journal/journal.js';
import { openJournal } from '../../src/journal/open.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { walkCraftBack } from './helpers.js';

/*
 * The round trips a fleet worker's journal makes for a plan (issue 34 §2: each is a socket write and a wait for a turn
 * of a busy worker's event loop). Each `query` call of node-postgres is one round trip: a simple query carries every
 * statement joined into it.
 */

const cluster = usePostgres();

const MINUTE = 60_000;
const registry = createDefaultRegistry();

/**
 * The transactions sent while `body` runs, each as the texts of its queries (its round trips), in order. A query
 * beginning with BEGIN opens its connection's next transaction; one sent outside a transaction is one alone.
 */
async function transactionsOf(body: () => Promise<void>): Promise<string[][]> {
  const spy = vi.spyOn(pg.Client.prototype, 'query');
  let calls: unknown[];
  let clients: unknown[];
  try {
    await body();
  } finally {
    // Restoring the method forgets its calls.
    calls = spy.mock.calls.map(([config]) => config);
    clients = [...spy.mock.contexts];
    spy.mockRestore();
  }
  const transactions: string[][] = [];
  const open = new Map<unknown, string[]>();
  calls.forEach((config, i) => {
    const client = clients[i];
    const text = typeof config === 'string' ? config : ((config as { text?: string }).text ?? '');
    let transaction = open.get(client);
    if (text.startsWith('BEGIN') || !transaction) {
      transaction = [];
      transactions.push(transaction);
      if (text.startsWith('BEGIN')) open.set(client, transaction);
    }
    transaction.push(text);
    if (/(COMMIT|ROLLBACK)$/.test(text)) open.delete(client);
  });
  return transactions;
}

/** A fleet bot's plan of three steps, journaled under its lease as a worker's held bot journals it. */
async function fencedPlan(journal: Journal): Promise<string[][]> {
  await journal.addBot({ name: 'ann' });
  const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', MINUTE))! };
  const plan = walkCraftBack('p');
  await journal.enqueuePlan({ ...plan, bot: 'ann', body: plan });
  const world = SimWorld.create({ clock: systemClock, inventory: { oak_log: 1 } });
  const assembly = await assembleJournaled({ registry, world, clock: systemClock, journal, kind: 'test', fence });
  try {
    return await transactionsOf(async () => {
      const next = await journal.claimNextPlan(fence);
      const result = await (await assembly.run(plan, { claimed: true })).result;
      await assembly.recorder.flush();
      expect([next?.planId, result.ok]).toEqual(['p', true]);
    });
  } finally {
    await assembly.close();
  }
}

describe("a fleet plan's journal round trips on PostgreSQL", () => {
  it('no round trip waits for the lease check alone, and the plan takes at most 24 of them', async () => {
    const journal = await openJournal(await cluster.database());
    try {
      // The bot's writes, fenced by its lease; not the runner's heartbeat, which beats on a timer of its own.
      const fenced = (await fencedPlan(journal)).filter((tx) => /verbtree_fence|FROM bot_leases/.test(tx[0]!));
      expect(fenced.length).toBeGreaterThan(10);
      const checkAlone = fenced.filter((tx) => /bot_leases|verbtree_fence/.test(tx[0]!.split(';\n').at(-1)!));
      expect(checkAlone).toEqual([]);
      const roundTrips = fenced.flat();
      expect(roundTrips.length).toBeLessThanOrEqual(24);
    } finally {
      await journal.close();
    }
  });

  it("a holder's look at its plan's control, and at its bots' queues, is one round trip each", async () => {
    const journal = await openJournal(await cluster.database());
    try {
      await journal.addBot({ name: 'ann' });
      await journal.enqueuePlan({ planId: 'p', intentId: 'i', bot: 'ann', body: {} });
      let answers: unknown[] = [];
      const sent = await transactionsOf(async () => {
        answers = [await journal.planControl('p'), await journal.queuedBots('w1')];
      });
      expect(answers).toEqual([{ control: null, reason: null }, []]);
      expect(sent.map((tx) => tx.length)).toEqual([1, 1]);
    } finally {
      await journal.close();
    }
  });
});
