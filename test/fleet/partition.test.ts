import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import { pgProxy } from '../helpers/pg-proxy.js';
import {
  lockReport,
  queue,
  statuses,
  stopWorker,
  succeededTransitions,
  until,
  walkFor,
  type Worker,
  useFleetWorld,
} from './fleet-helpers.js';

/*
 * Real worker processes (the CLI under tsx) on a real PostgreSQL cluster and the embedded server in a child process,
 * both this file's own. Leases are short (--lease-ms), and the tests wait for states of the journal, never for a time.
 */

const world = useFleetWorld();

describe('verbtree worker: a partition from PostgreSQL', () => {
  it('partition: a worker cut off from PostgreSQL fences itself before the new holder acts, and writes nothing under its lost lease', async () => {
    const url = await world.cluster.database();
    const proxy = await pgProxy(world.cluster.port);
    const journal = await openJournal(url);
    const workers: Worker[] = [];
    try {
      const plan = walkFor('pa', 20, 1);
      plan.steps.push(
        ...[2, 3].flatMap((n) => walkFor('pa', 20, n).steps.map((s) => ({ ...s, stepId: `${s.stepId}${n}` }))),
      );
      const cutOff = world.startWorker(url.replace(`:${world.cluster.port}/`, `:${proxy.port}/`), 'cut', ['pa'], 1);
      workers.push(cutOff);
      await until(
        'pa held by the cut-off worker',
        async () => (await journal.listBots())[0],
        (bot) => bot?.holder === 'cut' && bot.held,
      );
      const other = world.startWorker(url, 'other', [], 1);
      workers.push(other);
      // The other worker must be up (holding nothing, pa being held) before the cut, so it is ready to take over.
      await until('the other worker up', async () => (await other.out()).includes('worker other:'), Boolean);
      // The worst moment: mid-transaction, a session of the cut-off worker holding a lock on pa's lease row, with the
      // plan under way. Most of a plan's writes are one round trip each (BEGIN to COMMIT in one query) and hold no lock
      // between two; the opening of its run (the plan's row upserted, then the run's id awaited) waits mid-transaction:
      // the cut comes as that query has gone to the server.
      const cutting = proxy.cutAfterQuery('INSERT INTO plans');
      await queue(journal, 'pa', plan);
      await cutting;
      // On a loaded machine a worker may fence itself (its renewals late) and claim its bot again before that, so the
      // epoch cut off is read, not assumed.
      const epoch = (await journal.listBots())[0]!.epoch;
      const cutPorts = proxy.upstreamPorts();
      await until(
        'pa taken by the other worker',
        () => journal.listBots(),
        (bots) => bots[0]?.holder === 'other',
      ).catch(async (error: Error) => {
        throw new Error(
          `${error.message}\nsessions of the cut-off worker (client ports ${cutPorts.join(', ')}) and the others:\n${await lockReport(url)}\ncut:\n${await cutOff.out()}\nother:\n${await other.out()}`,
        );
      });
      await until(
        'the plan ended',
        () => statuses(journal, [plan.planId]),
        ([s]) => s === 'succeeded' || s === 'failed',
      );
      proxy.heal();
      // Its fence's last write (the plan journaled interrupted under its epoch) is tried until the database answers
      // it: only once that answer came has a stale write certainly met the healed network.
      await until(
        'the cut-off worker gave pa up',
        () => cutOff.out(),
        (out) => out.includes(`gave up pa (epoch ${epoch})`),
      );
      await stopWorker(cutOff);
      const cut = await cutOff.ended;
      const fenced = new RegExp(
        `^(\\S+) fenced pa \\(epoch ${epoch}, renewal_late\\): lease_lost: no lease renewal came back`,
        'm',
      ).exec(cut.out);
      expect(fenced, cut.out).not.toBeNull();
      // Fenced before the new holder's first action: before the other worker's first run of the plan began (under
      // whichever epoch: it too may have fenced itself and claimed pa again before it ran anything).
      const runs = (await journal.planProvenance(plan.planId))!.runs;
      const taken = runs.filter((r) => r.runner_id === 'other').sort((a, b) => a.started_at - b.started_at)[0];
      expect(taken, `runs: ${JSON.stringify(runs)}\nother:\n${await other.out()}\ncut:\n${cut.out}`).toBeDefined();
      expect(Date.parse(fenced![1]!)).toBeLessThan(taken!.started_at);
      // Nothing the cut-off worker began was written after that: its runs ended (by the new holder's interruption,
      // or its own fences) no later.
      for (const run of runs.filter((r) => r.runner_id === 'cut'))
        expect(run.ended_at!).toBeLessThanOrEqual(taken!.started_at);
      expect(await statuses(journal, [plan.planId])).toEqual(['succeeded']);
      expect(Object.values(await succeededTransitions(journal, plan.planId))).toEqual([1, 1, 1, 1, 1, 1]);
      expect(cut.out).toMatch(/stale writes refused: [1-9]\d*/);
    } finally {
      proxy.heal();
      for (const worker of workers) await stopWorker(worker);
      proxy.close();
      await journal.close();
    }
  }, 120_000);
});
