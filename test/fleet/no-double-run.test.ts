import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import {
  inProgressSpans,
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

describe('verbtree worker: workers contending for bots', () => {
  it('no double run: three workers contend for six bots and eighteen plans, one killed and replaced midway: no two epochs of a bot overlap, no bot runs two steps at once, no plan runs twice at once', async () => {
    const url = await world.cluster.database();
    const journal = await openJournal(url);
    const workers: Worker[] = [];
    try {
      const bots = ['na', 'nb', 'nc', 'nd', 'ne', 'nf'];
      const plans = bots.flatMap((bot, i) => [1, 2, 3].map((n) => ({ bot, plan: walkFor(bot, i + 10, n) })));
      for (const { bot, plan } of plans) await queue(journal, bot, plan);
      for (const id of ['n1', 'n2', 'n3']) workers.push(world.startWorker(url, id, [], 2));
      // Once every worker holds bots and some plans have ended, one dies and another takes its place.
      await until(
        'three workers holding bots and two plans ended',
        async () => ({
          holders: new Set((await journal.listBots()).filter((b) => b.held).map((b) => b.holder)).size,
          ended: (
            await statuses(
              journal,
              plans.map((p) => p.plan.planId),
            )
          ).filter((s) => s === 'succeeded').length,
        }),
        ({ holders, ended }) => holders === 3 && ended >= 2,
      );
      workers[0]!.child.kill('SIGKILL');
      await workers[0]!.ended;
      workers.push(world.startWorker(url, 'n4', [], 2));

      await until(
        'every plan ended',
        () =>
          statuses(
            journal,
            plans.map((p) => p.plan.planId),
          ),
        (s) => s.every((status) => status === 'succeeded' || status === 'failed'),
      );
      expect(
        await statuses(
          journal,
          plans.map((p) => p.plan.planId),
        ),
      ).toEqual(plans.map(() => 'succeeded'));

      const runsByBot = new Map<string, { epoch: number | null; from: number; to: number | null }[]>();
      const stepsByBot = new Map<string, [number, number][]>();
      for (const { bot, plan } of plans) {
        const provenance = (await journal.planProvenance(plan.planId))!;
        // No plan on two workers at once: its runs follow one another, each ended.
        const runs = [...provenance.runs].sort((a, b) => a.started_at - b.started_at);
        for (const [i, run] of runs.entries()) {
          expect(run.ended_at).not.toBeNull();
          if (i > 0) expect(runs[i - 1]!.ended_at!).toBeLessThanOrEqual(run.started_at);
        }
        runsByBot.set(bot, [
          ...(runsByBot.get(bot) ?? []),
          ...runs.map((r) => ({ epoch: r.epoch, from: r.started_at, to: r.ended_at })),
        ]);
        stepsByBot.set(bot, [
          ...(stepsByBot.get(bot) ?? []),
          ...inProgressSpans(provenance.steps.map((s) => s.transitions)),
        ]);
        expect(await succeededTransitions(journal, plan.planId)).toEqual({ out: 1, back: 1 });
      }
      for (const bot of bots) {
        // No two epochs of a bot overlap: every run of an epoch ends before the first run of the next begins.
        const epochs = new Map<number, { from: number; to: number }>();
        for (const run of runsByBot.get(bot)!) {
          expect(run.epoch).not.toBeNull();
          const span = epochs.get(run.epoch!) ?? { from: run.from, to: run.to! };
          epochs.set(run.epoch!, { from: Math.min(span.from, run.from), to: Math.max(span.to, run.to!) });
        }
        const ordered = [...epochs.entries()].sort((a, b) => a[0] - b[0]).map(([, span]) => span);
        for (let i = 1; i < ordered.length; i++) expect(ordered[i - 1]!.to).toBeLessThanOrEqual(ordered[i]!.from);
        // No bot with two steps running: its steps' in-progress spans, over all its plans, never overlap.
        const spans = stepsByBot.get(bot)!.sort((a, b) => a[0] - b[0]);
        for (let i = 1; i < spans.length; i++) expect(spans[i - 1]![1]).toBeLessThanOrEqual(spans[i]![0]);
      }
    } finally {
      for (const worker of workers) await stopWorker(worker);
      await journal.close();
    }
  }, 180_000);
});
