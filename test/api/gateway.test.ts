import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { systemClock } from '../../src/clock/index.js';
import type { RunInput } from '../../src/executor/executor.js';
import type { PlanResult } from '../../src/executor/events.js';
import { HealthConfig } from '../../src/journal/health-config.js';
import type { Journal } from '../../src/journal/journal.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { openJournal } from '../../src/journal/open.js';
import { SWEEPER_LOCK } from '../../src/journal/postgres/postgres-journal.js';
import { WAITING_FOR_HEADROOM } from '../../src/journal/rows.js';
import { ROUTES } from '../../src/api/contract/route-table.js';
import { applyFleet, emptyFleet } from '../../src/monitor/app/fleet.js';
import { QUEUED, botSample, describeWait, emptyModel } from '../../src/monitor/app/model.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { rawClient } from '../helpers/postgres.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { serveProcess } from '../helpers/serve-process.js';

const cluster = usePostgres();

const MINUTE = 60_000;
const healthConfig = HealthConfig.parse({});
const TOKEN = 'gateway-token';
const registry = createDefaultRegistry();
const planks = (planId: string) => ({
  planId,
  intentId: `intent-${planId}`,
  steps: [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }],
});

/**
 * A fleet worker as this test plays it, through the journal API on a connection of its own: it adds its bot to the
 * fleet, claims it, reports it, and runs the bot's queued plans on a journaled executor fenced by its lease.
 */
async function holder(url: string, worker: string, bot: string) {
  const journal = await openJournal(url);
  await journal.addBot({ name: bot });
  const epoch = await journal.claimBot(bot, worker, MINUTE);
  expect(epoch).toBe(1);
  const fence = { bot, epoch: epoch! };
  const world = SimWorld.create({ clock: systemClock, inventory: { oak_log: 2 } });
  const assembly = await assembleJournaled({ registry, world, clock: systemClock, journal, kind: 'worker', fence });
  return {
    journal,
    report: (state: string) =>
      journal.reportBots([
        {
          bot,
          epoch: fence.epoch,
          connected: true,
          state,
          kind: world.kind,
          position: world.position(),
          health: world.health(),
          food: world.food(),
        },
      ]),
    /** Runs the bot's queued plans one at a time, in order, until none is left; their results. */
    async drain(): Promise<PlanResult[]> {
      const results: PlanResult[] = [];
      for (;;) {
        const next = await journal.claimNextPlan(fence);
        if (!next) break;
        const run = await assembly.run(next.body as RunInput, { claimed: true });
        results.push(await run.result);
        // The plan's end is durable before the next claim: until then the journal holds it running, to resume.
        await assembly.recorder.flush();
      }
      return results;
    },
    async close() {
      await assembly.close();
      await journal.close();
    },
  };
}

/** `verbtree serve --world none` on the journal, as a process of its own; its base URL once it listens. */
async function gateway(url: string): Promise<{ base: string; stop: () => Promise<{ code: number | null }> }> {
  const served = await serveProcess(['--world', 'none', '--journal', url, '--token', TOKEN]);
  expect(served.about).toContain('fleet gateway, bots ann, bob');
  return { base: served.url, stop: served.stop };
}

const post = (base: string, query: string, body: unknown) =>
  fetch(`${base}/api/cognitive/execute${query}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { authorization: `Bearer ${TOKEN}` },
  });

type Message = { type: string; bot?: string; planId?: string; bots?: { bot: string }[]; fleet?: boolean };

describe('a fleet gateway (serve --world none on PostgreSQL)', () => {
  it("queues plans for bots two workers hold, once per planId; all complete; lists the fleet; serves every bot's runs and events", async () => {
    const url = await cluster.database();
    const w1 = await holder(url, 'w1', 'ann');
    const w2 = await holder(url, 'w2', 'bob');
    await w1.report('IDLE');
    await w2.report('IDLE');
    const { base, stop } = await gateway(url);
    const stream = new WebSocket(`${base.replace('http', 'ws')}/api/events`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const opened = new Promise((resolve) => stream.once('open', resolve));
    const messages: Message[] = [];
    stream.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as Message));
    try {
      const listed = (await (await fetch(`${base}/api/bots`)).json()) as { bots: Record<string, unknown>[] };
      expect(listed.bots).toMatchObject([
        { bot: 'ann', holder: 'w1', held: true, epoch: 1, state: 'IDLE', connected: true, plan: null, queued: 0 },
        { bot: 'bob', holder: 'w2', held: true, epoch: 1, state: 'IDLE', connected: true, plan: null, queued: 0 },
      ]);
      expect(listed.bots[0]!.leaseExpiresAt).toBeGreaterThan(Date.now());
      await opened;

      const first = await post(base, '?bot=ann', planks('a1'));
      expect(first.status).toBe(202);
      expect(await first.json()).toMatchObject({ planId: 'a1', bot: 'ann', queued: true, run: '/api/runs/a1' });
      // A client's retry of the same plan is one row: nothing new is queued, and it runs once.
      const again = await post(base, '?bot=ann', planks('a1'));
      expect(again.status).toBe(202);
      expect(await again.json()).toMatchObject({ planId: 'a1', bot: 'ann', queued: false });
      const elsewhere = await post(base, '?bot=bob', planks('a1'));
      expect(elsewhere.status).toBe(409);
      expect(await elsewhere.json()).toMatchObject({
        error: expect.stringContaining('already in the journal for bot ann') as string,
      });

      const unknown = await post(base, '?bot=zed', planks('z1'));
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({
        error: 'no bot "zed" in the fleet; its bots are ann, bob (GET /api/bots)',
        bots: ['ann', 'bob'],
      });
      const unnamed = await post(base, '', planks('z2'));
      expect(unnamed.status).toBe(400);
      expect(await unnamed.json()).toMatchObject({
        error: expect.stringContaining("the fleet's bots are ann, bob") as string,
      });

      const waited = post(base, '?bot=bob&wait=true', planks('b1'));
      // The wait reads the shared journal: the plan must be queued before bob's worker looks for it.
      const queuedFor = async (bot: string) =>
        ((await (await fetch(`${base}/api/bots`)).json()) as { bots: { bot: string; queued: number }[] }).bots.find(
          (b) => b.bot === bot,
        )!.queued;
      for (let polls = 0; polls < 1_000 && (await queuedFor('bob')) === 0; polls++);
      expect(await queuedFor('bob')).toBe(1);

      const [ran1, ran2] = await Promise.all([w1.drain(), w2.drain()]);
      expect(ran1.map((r) => [r.planId, r.ok])).toEqual([['a1', true]]);
      expect(ran2.map((r) => [r.planId, r.ok])).toEqual([['b1', true]]);
      const answer = await waited;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({
        success: true,
        planId: 'b1',
        bot: 'bob',
        run: {
          planId: 'b1',
          bot: 'bob',
          source: 'journal',
          status: 'succeeded',
          steps: [{ stepId: 'planks', status: 'succeeded' }],
        },
      });

      const run = (await (await fetch(`${base}/api/runs/a1`)).json()) as {
        provenance: { plan: { status: string; bot: string }; runs: unknown[] };
      };
      expect(run.provenance.plan).toMatchObject({ status: 'succeeded', bot: 'ann' });
      expect(run.provenance.runs).toHaveLength(1);
      const events = (await (await fetch(`${base}/api/runs/b1/events`)).json()) as { events: { type: string }[] };
      expect(events.events.map((e) => e.type)).toContain('plan.ended');

      // The stream relays what each worker journaled, naming its bot.
      const ended = (planId: string) => messages.find((m) => m.type === 'plan.ended' && m.planId === planId);
      for (let polls = 0; polls < 400 && !(ended('a1') && ended('b1')); polls++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(ended('a1')).toMatchObject({ bot: 'ann' });
      expect(ended('b1')).toMatchObject({ bot: 'bob' });
      expect(messages[0]).toMatchObject({ type: 'hello', fleet: true, bots: [{ bot: 'ann' }, { bot: 'bob' }] });

      const raw = await rawClient(url);
      try {
        const rows = await raw.query<{ plans: string; queued: string }>(
          "SELECT (SELECT COUNT(*) FROM plans WHERE plan_id = 'a1') AS plans, (SELECT COUNT(*) FROM plan_queue WHERE plan_id = 'a1') AS queued",
        );
        expect(rows.rows[0]).toEqual({ plans: '1', queued: '1' });
      } finally {
        await raw.end();
      }
    } finally {
      stream.terminate();
      expect((await stop()).code).toBe(0);
      await w1.close();
      await w2.close();
    }
  }, 60_000);

  it('controls a fleet plan over HTTP: a queued one is cancelled at once, a running one is marked for its holder', async () => {
    const url = await cluster.database();
    const w1 = await holder(url, 'w1', 'ann');
    const w2 = await holder(url, 'w2', 'bob');
    const { base, stop } = await gateway(url);
    const control = (planId: string, action: string, body: unknown = { reason: 'from the test' }) =>
      fetch(`${base}/api/plans/${planId}/${action}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { authorization: `Bearer ${TOKEN}` },
      });
    try {
      expect((await post(base, '?bot=ann', planks('run1'))).status).toBe(202);
      expect((await post(base, '?bot=ann', planks('drop1'))).status).toBe(202);
      const cancelled = await control('drop1', 'cancel');
      expect(cancelled.status).toBe(200);
      expect(await cancelled.json()).toEqual({ success: true, planId: 'drop1', action: 'cancel', pending: false });
      const twice = await control('drop1', 'cancel');
      expect(twice.status).toBe(409);
      expect(await twice.json()).toMatchObject({
        error: 'plan "drop1" cannot be cancelled: it has already ended (cancelled)',
      });

      // The holder takes run1 (a drain would run it at once): the gateway marks it for the holder to pause.
      const next = await w1.journal.claimNextPlan({ bot: 'ann', epoch: 1 });
      expect(next).toMatchObject({ planId: 'run1' });
      const paused = await control('run1', 'pause');
      expect(await paused.json()).toEqual({ success: true, planId: 'run1', action: 'pause', pending: true });
      expect(await w1.journal.planControl('run1')).toEqual({ control: 'pause', reason: 'from the test' });
      const replaced = await control('run1', 'replace', { steps: [] });
      expect(replaced.status).toBe(409);
      expect(await replaced.json()).toMatchObject({
        error: expect.stringContaining('runs on fleet bot ann in a worker') as string,
      });
      const unknown = await control('nowhere', 'cancel');
      expect(unknown.status).toBe(404);
      expect(await (await fetch(`${base}/api/runs/drop1`)).json()).toMatchObject({
        provenance: { plan: { status: 'cancelled', bot: 'ann' }, runs: [] },
      });
    } finally {
      expect((await stop()).code).toBe(0);
      await w1.close();
      await w2.close();
    }
  }, 60_000);

  it('lists a plan that waits for a worker as queued, with why and since when, in the answer its own schema declares, and the monitor shows it', async () => {
    const url = await cluster.database();
    const journal = await openJournal(url);
    await journal.addBot({ name: 'ann' });
    const w2 = await holder(url, 'w2', 'bob');
    await w2.report(WAITING_FOR_HEADROOM);
    const { base, stop } = await gateway(url);
    const stream = new WebSocket(`${base.replace('http', 'ws')}/api/events`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const streamed = emptyFleet();
    stream.on('message', (data: Buffer) => applyFleet(streamed, JSON.parse(data.toString()) as { type: string }));
    try {
      expect((await post(base, '?bot=ann', planks('a1'))).status).toBe(202);
      expect((await post(base, '?bot=bob', planks('b1'))).status).toBe(202);
      const queuedAt = async (planId: string) => (await journal.plan(planId))!.created_at;
      const answer: unknown = await (await fetch(`${base}/api/bots`)).json();
      const parsed = ROUTES.bots.responses[200].schema!.safeParse(answer);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      const { bots } = answer as { bots: Record<string, unknown>[] };
      expect(bots).toEqual([
        expect.objectContaining({
          bot: 'ann',
          held: false,
          queued: 1,
          waiting: {
            planId: 'a1',
            reason: 'no_holder',
            detail: 'no worker holds the bot (each takes bots only while it has headroom and capacity)',
            since: await queuedAt('a1'),
          },
        }),
        expect.objectContaining({
          bot: 'bob',
          holder: 'w2',
          held: true,
          state: WAITING_FOR_HEADROOM,
          waiting: {
            planId: 'b1',
            reason: 'no_headroom',
            detail: 'its worker w2 has no headroom; the plan starts when it has',
            since: await queuedAt('b1'),
          },
        }),
      ]);

      // The monitor: each bot's card and header, from the answer and from the stream's samples.
      const fromAnswer = emptyModel('ann');
      botSample(fromAnswer, bots[0]!);
      expect(fromAnswer.agent).toBe(QUEUED);
      expect(describeWait(fromAnswer.bot.waiting!)).toBe(
        `queued since ${new Date(await queuedAt('a1')).toISOString().slice(11, 19)} UTC (plan a1): no worker holds the bot (each takes bots only while it has headroom and capacity)`,
      );
      const fleet = emptyFleet();
      applyFleet(fleet, { type: 'bots.state', bots });
      expect([...fleet.bots.values()].map((m) => [m.name, m.agent, m.bot.waiting?.reason])).toEqual([
        ['ann', QUEUED, 'no_holder'],
        ['bob', QUEUED, 'no_headroom'],
      ]);
      // The stream's samples (each second) carry the same: the live view folds them as they come.
      const queuedOnStream = () =>
        streamed.bots.get('ann')?.agent === QUEUED && streamed.bots.get('bob')?.agent === QUEUED;
      for (let polls = 0; polls < 200 && !queuedOnStream(); polls++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      expect(streamed.bots.get('bob')?.bot.waiting).toEqual(bots[1]!.waiting);
    } finally {
      stream.terminate();
      expect((await stop()).code).toBe(0);
      await w2.close();
      await journal.close();
    }
  }, 60_000);

  it('lets one health sweeper at a time run: a second that finds the lock taken skips its round and changes nothing', async () => {
    const url = await cluster.database();
    const [first, second] = [await openJournal(url), await openJournal(url)];
    const sweep = (journal: Journal) =>
      journal.healthSweep({ config: healthConfig, isAlive: () => true, dryRun: false });
    try {
      await first.addBot({ name: 'ann' });
      // A lease of no time has lapsed at once: a finding for whichever sweeper runs.
      expect(await first.claimBot('ann', 'w-gone', 0)).toBe(1);
      const raw = await rawClient(url);
      try {
        // Another sweeper, mid-sweep: its transaction holds the sweeper's lock.
        await raw.query('BEGIN');
        await raw.query('SELECT pg_advisory_xact_lock($1)', [SWEEPER_LOCK]);
        const skipped = await sweep(second);
        expect(skipped.skipped).toMatch(/another process is running the health sweep/);
        expect(skipped.findings).toEqual([]);
        expect((await first.listIncidents()).total).toBe(0);
        await raw.query('COMMIT');
      } finally {
        await raw.end();
      }
      const swept = await sweep(second);
      expect(swept.skipped).toBeNull();
      expect(swept.findings.map((f) => f.mode).sort()).toEqual(['dead_worker', 'expired_lease']);
      // Two sweepers at once: each finding is journaled once, whichever ran.
      await Promise.all([sweep(first), sweep(second)]);
      expect((await first.listIncidents()).total).toBe(2);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("answers GET /api/bots with 503, the reason and Retry-After while the fleet's PostgreSQL is down, and lists again once it is back", async () => {
    const url = await cluster.database();
    const journal = await openJournal(url);
    await journal.addBot({ name: 'ann' });
    await journal.addBot({ name: 'bob' });
    await journal.close();
    const { base, stop } = await gateway(url);
    try {
      expect((await fetch(`${base}/api/bots`)).status).toBe(200);
      let down: Response | undefined;
      let body: { success?: boolean; error?: string } = {};
      await cluster.restart(async () => {
        down = await fetch(`${base}/api/bots`);
        body = (await down.json()) as typeof body;
      });
      expect(down?.status).toBe(503);
      expect(down?.headers.get('retry-after')).toBe('5');
      expect(body).toMatchObject({ success: false });
      expect(body.error).toMatch(
        /^the fleet's journal is unreachable \(.*ECONNREFUSED.*\): its bots cannot be listed until the database is back; try again shortly$/,
      );
      const listed = (await (await fetch(`${base}/api/bots`)).json()) as { bots: { bot: string }[] };
      expect(listed.bots.map((b) => b.bot)).toEqual(['ann', 'bob']);
    } finally {
      expect((await stop()).code).toBe(0);
    }
  }, 60_000);
});
