import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import {
  queue,
  statuses,
  stepStatuses,
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

describe('verbtree worker: PostgreSQL restarts', () => {
  it('database restart: every worker fences its bots while PostgreSQL is down; once it is back the plans resume and no step runs twice', async () => {
    const url = await world.cluster.database();
    const journal = await openJournal(url);
    const workers: Worker[] = [];
    try {
      const bots = ['ra', 'rb', 'rc', 'rd'];
      const plans = bots.map((bot, i) => {
        const plan = walkFor(bot, 30 + i, 1);
        plan.steps.push(...walkFor(bot, 30 + i, 3).steps.map((s) => ({ ...s, stepId: `${s.stepId}-again` })));
        return plan;
      });
      for (const [i, bot] of bots.entries()) await queue(journal, bot, plans[i]!);
      workers.push(world.startWorker(url, 'r1', ['ra', 'rb'], 2), world.startWorker(url, 'r2', ['rc', 'rd'], 2));
      await until(
        'a step in progress on a bot of each worker',
        () => Promise.all(plans.map((p) => stepStatuses(journal, p.planId))),
        (all) => all.filter((s) => s.includes('in_progress')).length >= 3,
      );
      // A bot is its worker's once the worker printed its claim; one still unclaimed when the database went (a worker
      // waits for its first load reading before it claims) has nothing to fence, and no claim comes while it is down.
      const claimed = (outs: string[], bot: string) => outs.some((out) => out.includes(`claimed ${bot} (epoch 1)`));
      const fenced = (outs: string[], bot: string) =>
        outs.some((out) => new RegExp(`fenced ${bot} \\(epoch 1, \\w+\\): `).test(out));
      await world.cluster.restart(() =>
        until(
          'every worker fenced the bots it had claimed',
          () => Promise.all(workers.map((w) => w.out())),
          (outs) => bots.filter((bot) => claimed(outs, bot)).every((bot) => fenced(outs, bot)),
        ).then(() => undefined),
      );
      await until(
        'every plan ended',
        () =>
          statuses(
            journal,
            plans.map((p) => p.planId),
          ),
        (s) => s.every((status) => status === 'succeeded' || status === 'failed'),
      );
      expect(
        await statuses(
          journal,
          plans.map((p) => p.planId),
        ),
      ).toEqual(plans.map(() => 'succeeded'));
      for (const plan of plans)
        expect(await succeededTransitions(journal, plan.planId)).toEqual({
          out: 1,
          back: 1,
          'out-again': 1,
          'back-again': 1,
        });
      // Each plan that was under way was resumed under a later epoch.
      const resumed = await Promise.all(
        plans.map(async (p) =>
          (await journal.planProvenance(p.planId))!.runs.some((r) => r.resumed === 1 && (r.epoch ?? 0) > 1),
        ),
      );
      expect(resumed.filter(Boolean).length).toBeGreaterThanOrEqual(3);
    } finally {
      for (const worker of workers) await stopWorker(worker);
      await journal.close();
    }
  }, 150_000);
});
