import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import {
  prepareWorldFolder,
  startEmbeddedServerInChild,
  type ChildEmbeddedServer,
} from '../../src/world/embedded/index.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { cliProcess, finished } from '../journal/cli-process.js';
import {
  inProgressSpans,
  lockReport,
  planFor,
  queue,
  startWorker as startWorkerOn,
  statuses,
  stepStatuses,
  stopWorker,
  succeededTransitions,
  until,
  walkFor,
  type Worker,
} from './fleet-helpers.js';
import { pgProxy } from '../helpers/pg-proxy.js';

/*
 * Real worker processes (the CLI under tsx) on a real PostgreSQL cluster and the embedded server in a child process
 * keeping its players (so a bot that joins again comes back with what it held). Leases are short (--lease-ms), and
 * the tests wait for states of the journal, never for a time.
 */

let cluster: PostgresCluster;
let server: ChildEmbeddedServer;

beforeAll(async () => {
  cluster = await startPostgres();
  const folder = join(mkdtempSync(join(tmpdir(), 'verbtree-fleet-')), 'world');
  prepareWorldFolder(folder, 'fresh');
  server = await startEmbeddedServerInChild({
    scenario: parseScenario({ name: 'fleet', spawn: { x: 0, y: 5, z: 0 }, bot: { inventory: { oak_log: 2 } } }),
    storage: { folder, fresh: true },
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  cluster?.stop();
});

const startWorker = (url: string, id: string, bots: string[], capacity: number, version?: string) =>
  startWorkerOn(url, server.port, id, bots, capacity, version);

describe('verbtree worker: bots held under leases by worker processes', () => {
  it('takeover: a worker SIGKILLed mid-step loses its bots to the other, whose resume ends every plan verified with each step succeeded once and no item doubled', async () => {
    const url = await cluster.database();
    const journal = await openJournal(url);
    const workers: Worker[] = [];
    try {
      const bots = ['ta', 'tb', 'tc', 'td'];
      const plans = bots.map((bot, i) => planFor(bot, i, 1));
      for (const [i, bot] of bots.entries()) await queue(journal, bot, plans[i]!);
      const victim = startWorker(url, 'victim', ['ta', 'tb'], 2);
      workers.push(victim);
      // The victim holds its bots and has a step of one under way; only then does the survivor start.
      const busy = await until(
        'a step in progress on a bot of the victim',
        async () => {
          const held = (await journal.listBots()).filter((b) => b.holder === 'victim' && b.held && b.plan);
          for (const bot of held) {
            const steps = (await journal.planProvenance(bot.plan!))?.steps ?? [];
            const running = steps.find((s) => s.step.status === 'in_progress' && s.step.step_id !== 'planks');
            if (running) return { bot: bot.name, step: running.step.step_id };
          }
          return null;
        },
        (found) => found !== null,
      );
      expect(busy).not.toBeNull();
      const survivor = startWorker(url, 'survivor', ['tc', 'td'], 4);
      workers.push(survivor);
      victim.child.kill('SIGKILL');
      expect((await victim.ended).signal).toBe('SIGKILL');

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
      const fleet = await journal.listBots();
      expect(fleet.map((b) => [b.name, b.holder])).toEqual(bots.map((b) => [b, 'survivor']));
      // The survivor tells the journal what each bot does, under its own epoch (what a gateway's GET /api/bots lists).
      const reported = await until(
        "the survivor's reports of every bot",
        () => journal.listBots(),
        (listed) => listed.every((b) => b.status?.connected === true),
      );
      for (const bot of reported) {
        expect(bot.status).toMatchObject({ kind: 'mineflayer', health: 20 });
        // The state is as of the last renewal, which may precede the plan's end: any agent state, but one.
        expect(bot.status?.state).toMatch(/^[A-Z]+$/);
        expect(bot.status?.position).not.toBeNull();
      }
      for (const plan of plans)
        expect(await succeededTransitions(journal, plan.planId)).toEqual({ planks: 1, out: 1, sticks: 1, back: 1 });
      // The victim's bots were resumed, not started over: a run under the survivor's epoch, resumed.
      for (const bot of ['ta', 'tb']) {
        const runs = (await journal.planProvenance(`${bot}-p1`))!.runs;
        expect(runs.at(-1)).toMatchObject({ resumed: 1, ok: 1 });
      }
      // Two logs, one crafted into 4 planks, two planks into 4 sticks: once each, on every bot.
      for (const bot of bots) expect(server.player(bot)?.inventory).toEqual({ oak_log: 1, oak_planks: 2, stick: 4 });
    } finally {
      for (const worker of workers) await stopWorker(worker);
      await journal.close();
    }
  }, 180_000);

  it('asks the server its version: auto finds 1.21.4, and a version the server does not speak is refused naming both', async () => {
    const url = await cluster.database();
    const wrong = cliProcess(
      ['worker', '--journal', url, '--host', '127.0.0.1', '--port', String(server.port)].concat([
        '--version',
        '1.20.1',
        '--bot',
        'va',
      ]),
    );
    const refused = await finished(wrong);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      `the server at 127.0.0.1:${server.port} speaks Minecraft 1.21.4, not 1.20.1 (--version)`,
    );
    const auto = startWorker(url, 'auto', ['vb'], 1, 'auto');
    try {
      const journal = await openJournal(url);
      await until(
        'vb held',
        () => journal.listBots(),
        (bots) => bots.some((b) => b.name === 'vb' && b.held),
      );
      await journal.close();
    } finally {
      await stopWorker(auto);
    }
    const ended = await auto.ended;
    expect(ended.code).toBe(0);
    expect(ended.out).toContain('(Minecraft 1.21.4, offline)');
    expect(ended.out).toContain('fenced vb (epoch 1): interrupted');
    expect(ended.out).toContain('gave up vb (epoch 1)');
  }, 60_000);

  it('partition: a worker cut off from PostgreSQL fences itself before the new holder acts, and writes nothing under its lost lease', async () => {
    const url = await cluster.database();
    const proxy = await pgProxy(cluster.port);
    const journal = await openJournal(url);
    const workers: Worker[] = [];
    try {
      const plan = walkFor('pa', 20, 1);
      plan.steps.push(
        ...[2, 3].flatMap((n) => walkFor('pa', 20, n).steps.map((s) => ({ ...s, stepId: `${s.stepId}${n}` }))),
      );
      await queue(journal, 'pa', plan);
      const cutOff = startWorker(url.replace(`:${cluster.port}/`, `:${proxy.port}/`), 'cut', ['pa'], 1);
      workers.push(cutOff);
      await until(
        'a step of pa in progress',
        () => stepStatuses(journal, plan.planId),
        (s) => s.includes('in_progress'),
      );
      const other = startWorker(url, 'other', [], 1);
      workers.push(other);
      // The other worker must be up (holding nothing, pa being held) before the cut, so it is ready to take over.
      await until('the other worker up', async () => (await other.out()).includes('worker other:'), Boolean);
      proxy.cut();
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
      // Its fence's last write (the plan journaled interrupted under epoch 1) is tried until the database answers it:
      // only once that answer came has a stale write certainly met the healed network.
      await until(
        'the cut-off worker gave pa up',
        () => cutOff.out(),
        (out) => out.includes('gave up pa (epoch 1)'),
      );
      await stopWorker(cutOff);
      const cut = await cutOff.ended;
      const fenced = /^(\S+) fenced pa \(epoch 1\): lease_lost: no lease renewal came back/m.exec(cut.out);
      expect(fenced, cut.out).not.toBeNull();
      // Fenced before the new holder's first action: before its run (epoch 2) began.
      const runs = (await journal.planProvenance(plan.planId))!.runs;
      const taken = runs.find((r) => r.epoch === 2)!;
      expect(taken, `runs: ${JSON.stringify(runs)}\nother:\n${await other.out()}\ncut:\n${cut.out}`).toBeDefined();
      expect(Date.parse(fenced![1]!)).toBeLessThan(taken.started_at);
      // Nothing of epoch 1 was written after epoch 2 began: its runs ended (by the new holder's interruption) no later.
      for (const run of runs.filter((r) => r.epoch === 1)) expect(run.ended_at!).toBeLessThanOrEqual(taken.started_at);
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

  it('database restart: every worker fences its bots while PostgreSQL is down; once it is back the plans resume and no step runs twice', async () => {
    const url = await cluster.database();
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
      workers.push(startWorker(url, 'r1', ['ra', 'rb'], 2), startWorker(url, 'r2', ['rc', 'rd'], 2));
      await until(
        'a step in progress on a bot of each worker',
        () => Promise.all(plans.map((p) => stepStatuses(journal, p.planId))),
        (all) => all.filter((s) => s.includes('in_progress')).length >= 3,
      );
      await cluster.restart(() =>
        until(
          'every worker fenced its bots',
          () => Promise.all(workers.map((w) => w.out())),
          (outs) => bots.every((bot) => outs.some((out) => new RegExp(`fenced ${bot} \\(epoch 1\\): `).test(out))),
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

  it('no double run: three workers contend for six bots and eighteen plans, one killed and replaced midway: no two epochs of a bot overlap, no bot runs two steps at once, no plan runs twice at once', async () => {
    const url = await cluster.database();
    const journal = await openJournal(url);
    const workers: Worker[] = [];
    try {
      const bots = ['na', 'nb', 'nc', 'nd', 'ne', 'nf'];
      const plans = bots.flatMap((bot, i) => [1, 2, 3].map((n) => ({ bot, plan: walkFor(bot, i + 10, n) })));
      for (const { bot, plan } of plans) await queue(journal, bot, plan);
      for (const id of ['n1', 'n2', 'n3']) workers.push(startWorker(url, id, [], 2));
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
      workers.push(startWorker(url, 'n4', [], 2));

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
