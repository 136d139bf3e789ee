import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { WAITING_FOR_HEADROOM } from '../../src/journal/rows.js';
import { FleetBots } from '../../src/operations/fleet-bots.js';
import { createOperations } from '../../src/operations/operations.js';
import { JOURNAL_POLL_MS } from '../../src/operations/runs.js';
import { openTemp } from '../journal/helpers.js';
import { refusal } from '../helpers/operations.js';

const registry = createDefaultRegistry();
const MINUTE = 60_000;
const walk = (planId: string) => ({
  planId,
  intentId: 'i',
  steps: [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 3, y: 5, z: 0 } } }],
});

async function fleet(bots: readonly string[]) {
  const { journal } = openTemp();
  for (const name of bots) await journal.addBot({ name });
  const clock = new ManualClock();
  const ops = createOperations({ registry, journal, bots: new FleetBots(journal), clock });
  return { journal, clock, ops };
}

async function onClock<T>(clock: ManualClock, promise: Promise<T>, maxMs: number): Promise<T> {
  let settled: { value: T } | undefined;
  void promise.then((value) => (settled = { value }));
  await clock.runUntil(() => settled !== undefined, maxMs);
  if (!settled) throw new Error(`not settled within ${maxMs} ms of virtual time`);
  return settled.value;
}

describe('operations on a fleet (FleetBots: bots held by workers elsewhere, reached through the journal)', () => {
  it('queue a plan for the named bot once per planId, and refuse an unknown bot, no bot, or a look at its world', async () => {
    const { journal, ops } = await fleet(['ann', 'bob']);
    expect(await ops.start(walk('p1'), { bot: 'ann' })).toEqual({ planId: 'p1', bot: 'ann', steps: 1, queued: true });
    expect(await ops.start(walk('p1'), { bot: 'ann' })).toEqual({ planId: 'p1', bot: 'ann', steps: 1, queued: false });
    expect(await refusal(() => ops.start(walk('p1'), { bot: 'bob' }))).toMatchObject({
      kind: 'conflict',
      message: expect.stringContaining('plan "p1" is already in the journal for bot ann (queued)') as string,
    });
    expect(await refusal(() => ops.start(walk('p2'), { bot: 'zed' }))).toMatchObject({
      kind: 'not_found',
      message: 'no bot "zed" in the fleet; its bots are ann, bob',
      details: { field: 'bot', bots: ['ann', 'bob'] },
    });
    expect(await refusal(() => ops.start(walk('p2')))).toMatchObject({
      kind: 'invalid',
      details: { field: 'bot', bots: ['ann', 'bob'] },
    });
    expect(await refusal(() => ops.observe({ bot: 'ann' }))).toMatchObject({ kind: 'unavailable' });
    expect(await journal.listBots()).toMatchObject([
      { name: 'ann', queued: 1 },
      { name: 'bob', queued: 0 },
    ]);
    expect(await ops.listBots()).toMatchObject([
      { bot: 'ann', holder: null, held: false, state: null, position: null, plan: null, queued: 1 },
      { bot: 'bob', queued: 0 },
    ]);
  });

  it('a queued plan says why it waits for a worker and since when: none holds its bot, its holder has no headroom, or its holder left it', async () => {
    let now = 1_000_000;
    const { journal } = openTemp(() => now);
    for (const name of ['ann', 'bob']) await journal.addBot({ name });
    const ops = createOperations({ registry, journal, bots: new FleetBots(journal), clock: new ManualClock() });
    const queuedAt = now;
    await ops.start(walk('p1'), { bot: 'ann' });
    now += 5_000;
    await ops.start(walk('p2'), { bot: 'ann' });
    const waiting = async () => (await ops.listBots()).map((b) => ('waiting' in b ? b.waiting : 'not a fleet bot'));
    const noHolder = 'no worker holds the bot (each takes bots only while it has headroom and capacity)';
    expect(await waiting()).toEqual([{ planId: 'p1', reason: 'no_holder', detail: noHolder, since: queuedAt }, null]);

    const epoch = (await journal.claimBot('ann', 'w1', MINUTE))!;
    const report = { bot: 'ann', epoch, connected: true, kind: 'sim', position: null, health: 20, food: 20 };
    await journal.reportBots([{ ...report, state: 'IDLE' }]);
    expect(await waiting()).toEqual([null, null]);
    await journal.reportBots([{ ...report, state: WAITING_FOR_HEADROOM }]);
    expect(await waiting()).toEqual([
      {
        planId: 'p1',
        reason: 'no_headroom',
        detail: 'its worker w1 has no headroom; the plan starts when it has',
        since: queuedAt,
      },
      null,
    ]);

    // Its holder takes p1 and then goes silent: once its lease lapses, p1 waits for a new holder from that moment.
    await journal.reportBots([{ ...report, state: 'EXECUTING' }]);
    now += 1_000;
    expect(await journal.claimNextPlan({ bot: 'ann', epoch })).toMatchObject({ planId: 'p1' });
    expect(await waiting()).toEqual([null, null]);
    const lapsedAt = now - 1_000 + MINUTE;
    now += 2 * MINUTE;
    expect(await waiting()).toEqual([{ planId: 'p1', reason: 'no_holder', detail: noHolder, since: lapsedAt }, null]);
    expect((await ops.listBots())[0]).toMatchObject({ plan: 'p1', queued: 1, held: false });
  });

  it('an empty fleet says how a bot joins it', async () => {
    const { ops } = await fleet([]);
    expect(await refusal(() => ops.start(walk('p')))).toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining('verbtree worker') as string,
    });
  });

  it('waits by reading the journal on the clock: running past its limit, through an interruption, ended when the holder ends it', async () => {
    const { journal, clock, ops } = await fleet(['ann']);
    const started = clock.now();
    expect(await onClock(clock, ops.run(walk('p'), { bot: 'ann', waitMs: 1_000 }), 5_000)).toEqual({
      status: 'running',
      planId: 'p',
      bot: 'ann',
    });
    expect(clock.now() - started).toBe(1_000);
    const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', MINUTE))! };
    expect(await journal.claimNextPlan(fence)).toMatchObject({ planId: 'p' });
    // Interrupted with its worker, a fleet plan waits for the bot's next holder: no end.
    await journal.setPlanStatus('p', 'interrupted', fence);
    const before = clock.now();
    expect(await onClock(clock, ops.getRun('p', { waitMs: 2_000 }), 5_000)).toMatchObject({ status: 'interrupted' });
    expect(clock.now() - before).toBe(2_000);

    const waiting = ops.getRun('p', { waitMs: MINUTE });
    await clock.advance(3 * JOURNAL_POLL_MS);
    await journal.setPlanStatus('p', 'succeeded', fence);
    const from = clock.now();
    expect(await onClock(clock, waiting, MINUTE)).toMatchObject({ planId: 'p', bot: 'ann', status: 'succeeded' });
    expect(clock.now() - from).toBeLessThanOrEqual(JOURNAL_POLL_MS);
  });

  it('a caller gone ends its wait, never the plan, and leaves no poll behind', async () => {
    const { journal, clock, ops } = await fleet(['ann']);
    const gone = new AbortController();
    const waiting = ops.run(walk('p'), { bot: 'ann', stopWaiting: gone.signal });
    await clock.advance(5 * JOURNAL_POLL_MS);
    expect(clock.pendingTimers()).toBe(1);
    gone.abort();
    expect(await onClock(clock, waiting, MINUTE)).toEqual({ status: 'running', planId: 'p', bot: 'ann' });
    expect(clock.pendingTimers()).toBe(0);
    expect((await journal.plan('p'))?.status).toBe('queued');
  });

  it("a caller's abort cancels the plan through the journal, and the call answers the end it journals", async () => {
    const { journal, clock, ops } = await fleet(['ann']);
    const cancel = new AbortController();
    const waiting = ops.run(walk('p'), { bot: 'ann', signal: cancel.signal });
    await clock.advance(2 * JOURNAL_POLL_MS);
    cancel.abort('the caller went away');
    // Still queued (no worker took it): cancelled at once, an end.
    expect(await onClock(clock, waiting, MINUTE)).toMatchObject({
      status: 'ended',
      result: null,
      run: { planId: 'p', bot: 'ann', status: 'cancelled', failure: { code: 'aborted' } },
    });
    expect(await journal.plan('p')).toMatchObject({ status: 'cancelled' });
    expect(await journal.planControl('p')).toEqual({
      control: 'cancel',
      reason: 'cancelled by its caller: the caller went away',
    });
    expect(clock.pendingTimers()).toBe(0);
  });
});
