import { describe, expect, it } from 'vitest';
import { LeaseLostError, type EventRecord, type Journal } from '../../src/journal/journal.js';
import type { Fence } from '../../src/journal/rows.js';
import { JournalRecorder } from '../../src/journal/recorder.js';
import { contractBackends } from './backends.js';
import { stepFields } from './helpers.js';

const MINUTE = 60_000;
const plan = (planId: string) => ({ planId, intentId: 'i', steps: [{ stepId: 's', type: 'navigate' }] });

/**
 * Plan p of bot ann as its holder journals it under the fence: planks succeeded, then walk started with its key
 * claimed and an attempt open, as a worker leaves it when it stops mid-step.
 */
async function midPlan(journal: Journal, fence: Fence, runnerId: string): Promise<void> {
  const steps = [
    { stepId: 'planks', type: 'craft_item', args: {} },
    { stepId: 'walk', type: 'navigate', args: {}, idempotencyKey: 'walk-key' },
  ];
  const body = { planId: 'p', intentId: 'i', steps };
  await journal.registerRunner({ id: runnerId, pid: 1, host: 'h', kind: 'worker' }, { takeOverSilentAfterMs: MINUTE });
  await journal.enqueuePlan({ planId: 'p', intentId: 'i', bot: fence.bot, body });
  await journal.claimNextPlan(fence);
  await journal.beginRun({ planId: 'p', intentId: 'i', steps, body, runnerId }, fence);
  const base = { at: 0, planId: 'p', version: '1.0.0', attempt: 1, deadlineAt: 60_000 };
  const event = (e: object) =>
    journal.recordEvent({ event: { ...base, ...e } as EventRecord['event'], runnerId }, fence);
  await event({ type: 'step.started', stepId: 'planks', verb: 'craft_item', args: {} });
  await event({
    type: 'step.ended',
    stepId: 'planks',
    verb: 'craft_item',
    outcome: { ok: true },
    attempts: 1,
    durationMs: 5,
    ttfaMs: 1,
  });
  await event({ type: 'step.started', stepId: 'walk', verb: 'navigate', args: {}, idempotencyKey: 'walk-key' });
  await journal.claimKey({ key: 'walk-key', planId: 'p', stepId: 'walk', verb: 'navigate', args: {}, runnerId }, fence);
  await event({ type: 'attempt.started', stepId: 'walk', verb: 'navigate' });
}

describe.each(contractBackends())('the fleet on the %s journal', (_backend, fresh) => {
  it('two holders never both hold one bot: of four workers claiming at once, one wins, epoch 1', async () => {
    const { journal, another } = await fresh();
    await journal.addBot({ name: 'ann' });
    const workers = [journal, await another(), await another(), await another()];
    const epochs = await Promise.all(workers.map((w, i) => w.claimBot('ann', `w${i}`, MINUTE)));
    expect(epochs.filter((e) => e !== null)).toEqual([1]);
    const holder = `w${epochs.findIndex((e) => e !== null)}`;
    // Held: nobody else, not even the holder again, claims it before it lapses.
    expect(await journal.claimBot('ann', 'w9', MINUTE)).toBeNull();
    expect(await journal.claimBot('ann', holder, MINUTE)).toBeNull();
    expect(await journal.listBots()).toMatchObject([
      { name: 'ann', holder, epoch: 1, held: true, plan: null, queued: 0 },
    ]);
    await expect(journal.claimBot('bob', 'w1', MINUTE)).rejects.toThrow('no bot "bob" in the fleet; its bots are ann');
  });

  it("an expired lease is taken with epoch+1; the old holder's renewal no longer finds it; a release keeps the epoch", async () => {
    const { journal } = await fresh();
    for (const name of ['ann', 'bea', 'cy']) await journal.addBot({ name });
    // A lease of no time lapses at once, by the database's clock.
    expect(await journal.claimBot('ann', 'w1', 0)).toBe(1);
    expect(await journal.claimBot('bea', 'w1', MINUTE)).toBe(1);
    expect(await journal.claimBot('cy', 'w2', MINUTE)).toBe(1);
    expect(await journal.claimBot('ann', 'w2', MINUTE)).toBe(2);
    // One statement renews all of a holder's leases, and says which it still holds.
    expect(await journal.renewLeases('w1', MINUTE)).toEqual([{ bot: 'bea', epoch: 1 }]);
    expect(await journal.renewLeases('w2', MINUTE)).toEqual([
      { bot: 'ann', epoch: 2 },
      { bot: 'cy', epoch: 1 },
    ]);
    expect(await journal.releaseBot({ bot: 'ann', holder: 'w1', epoch: 1 })).toBe(false);
    expect(await journal.releaseBot({ bot: 'ann', holder: 'w2', epoch: 2 })).toBe(true);
    expect(await journal.releaseBot({ bot: 'ann', holder: 'w2', epoch: 2 })).toBe(false);
    expect((await journal.listBots())[0]).toMatchObject({ name: 'ann', holder: null, held: false, epoch: 2 });
    expect(await journal.claimBot('ann', 'w3', MINUTE)).toBe(3);
    // A lease renewed to no time lapses too: its holder must claim it again.
    await journal.renewLeases('w2', 0);
    expect(await journal.renewLeases('w2', MINUTE)).toEqual([]);
  });

  it("a stale epoch's writes are refused in the same transaction, counted, and change nothing", async () => {
    const { journal, another } = await fresh();
    const stale = await another();
    await journal.addBot({ name: 'ann' });
    const old = { bot: 'ann', epoch: (await stale.claimBot('ann', 'w1', MINUTE))! };
    await stale.beginRun({ ...plan('p'), body: plan('p'), runnerId: null }, old);
    expect(await stale.transition('p', 's', 'in_progress', 'dispatched', old)).toBe(true);
    // The lease moves on: w1 let it go (a partition would have let it lapse), and w2 holds it now.
    await stale.releaseBot({ ...old, holder: 'w1' });
    const now = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w2', MINUTE))! };
    expect(now.epoch).toBe(2);
    const refused = await Promise.allSettled([
      stale.transition('p', 's', 'succeeded', 'verified', old),
      stale.claimKey({ key: 'k', planId: 'p', stepId: 's', verb: 'navigate', args: {}, runnerId: 'w1' }, old),
      stale.setPlanStatus('p', 'succeeded', old),
      stale.claimNextPlan(old),
    ]);
    for (const write of refused) {
      expect(write.status).toBe('rejected');
      const reason = (write as PromiseRejectedResult).reason as unknown;
      expect(reason).toBeInstanceOf(LeaseLostError);
      expect(reason).toMatchObject({ code: 'lease_lost', fence: old });
    }
    expect(stale.fencedWritesRefused).toBe(4);
    expect(await stepFields(journal, 'p', 'status')).toEqual([{ status: 'in_progress' }]);
    expect((await journal.plan('p'))?.status).toBe('running');
    expect(
      await journal.claimKey({ key: 'k', planId: 'q', stepId: 't', verb: 'navigate', args: {}, runnerId: 'w2' }),
    ).toEqual({ claimed: true });
    // The new holder's writes go through.
    expect(await journal.transition('p', 's', 'pending', 'taken over', now)).toBe(true);
    expect(journal.fencedWritesRefused).toBe(0);
  });

  it('refuses a batch under a lost lease whole, counting each of its writes', async () => {
    const { journal } = await fresh();
    await journal.addBot({ name: 'ann' });
    const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', 0))! };
    const run = { ...plan('p'), body: plan('p'), runnerId: null };
    const intent = { id: 'i' };
    await expect(
      journal.recordBatch(
        [
          { kind: 'beginRun', run },
          { kind: 'intent', intent },
        ],
        fence,
      ),
    ).rejects.toMatchObject({ code: 'lease_lost', fence });
    expect(journal.fencedWritesRefused).toBe(2);
    expect(await journal.plan('p')).toBeUndefined();
  });

  it('refuses a write under a lease that lapsed even before anyone else claimed the bot', async () => {
    const { journal } = await fresh();
    await journal.addBot({ name: 'ann' });
    const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', 0))! };
    await expect(journal.setPlanStatus('p', 'failed', fence)).rejects.toMatchObject({ code: 'lease_lost' });
    expect(journal.fencedWritesRefused).toBe(1);
  });

  it("a fenced recorder's flush rejects with lease_lost once its lease moves on, and it writes nothing more", async () => {
    const { journal } = await fresh();
    await journal.addBot({ name: 'ann' });
    const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', MINUTE))! };
    const recorder = new JournalRecorder(journal, { runnerId: null, fence });
    await recorder.beginRun({ ...plan('p'), body: plan('p') });
    const warning = (message: string) => ({
      type: 'step.warning' as const,
      at: 0,
      planId: 'p',
      stepId: 's',
      verb: 'navigate',
      message,
    });
    recorder.record(warning('held'));
    await recorder.flush();
    await journal.releaseBot({ ...fence, holder: 'w1' });
    await journal.claimBot('ann', 'w2', MINUTE);
    recorder.record(warning('after the lease moved on'));
    await expect(recorder.flush()).rejects.toMatchObject({ code: 'lease_lost' });
    recorder.record(warning('later still'));
    await expect(recorder.flush()).rejects.toMatchObject({ code: 'lease_lost' });
    expect(journal.fencedWritesRefused).toBe(1);
    const events = (await journal.eventHistory('p', { after: 0, limit: 10 }))!.rows;
    expect(events.map((e) => (e.event as { message: string }).message)).toEqual(['held']);
  });

  it('queues a plan once per planId, hands the held bot its plans in order, and keeps one running plan per bot', async () => {
    const { journal, another } = await fresh();
    await journal.addBot({ name: 'ann', settings: { auth: 'offline' } });
    await journal.addBot({ name: 'ann' });
    const enqueue = (planId: string, bot = 'ann') => ({ ...plan(planId), bot, body: plan(planId) });
    // Three gateways post the same plan at once: one row.
    const posts = await Promise.all(
      [journal, await another(), await another()].map((j) => j.enqueuePlan(enqueue('p1'))),
    );
    expect(posts.filter((p) => p.queued)).toHaveLength(1);
    expect(posts.find((p) => !p.queued)).toEqual({ queued: false, existing: { bot: 'ann', status: 'queued' } });
    expect(await journal.enqueuePlan(enqueue('p2'))).toEqual({ queued: true });
    expect(await journal.enqueuePlan(enqueue('p3', 'zed'))).toEqual({ queued: false, unknownBot: true, bots: ['ann'] });
    expect(await journal.listBots()).toMatchObject([
      { name: 'ann', settings: { auth: 'offline' }, queued: 2, plan: null },
    ]);

    const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', MINUTE))! };
    expect(await journal.claimNextPlan(fence)).toEqual({
      planId: 'p1',
      intentId: 'i',
      body: plan('p1'),
      resume: false,
      control: { control: null, reason: null },
    });
    // Until it ends, it is the bot's plan: a new holder (or this one, asking again) resumes it, never a second plan.
    expect(await journal.claimNextPlan(fence)).toMatchObject({ planId: 'p1', resume: true });
    await expect(journal.setPlanStatus('p2', 'running')).rejects.toThrow(/unique|constraint/i);
    expect(await journal.listBots()).toMatchObject([{ plan: 'p1', queued: 1 }]);
    await journal.setPlanStatus('p1', 'succeeded', fence);
    expect(await journal.claimNextPlan(fence)).toMatchObject({ planId: 'p2', resume: false });
    await journal.setPlanStatus('p2', 'failed', fence);
    expect(await journal.claimNextPlan(fence)).toBeNull();
  });
  it("tells a holder, in one read, which of its bots have a plan queued, and none of another holder's", async () => {
    const { journal } = await fresh();
    for (const name of ['ann', 'bob', 'cy']) await journal.addBot({ name });
    const enqueue = (planId: string, bot: string) => ({ ...plan(planId), bot, body: plan(planId) });
    await journal.claimBot('ann', 'w1', MINUTE);
    const bob = { bot: 'bob', epoch: (await journal.claimBot('bob', 'w1', MINUTE))! };
    await journal.claimBot('cy', 'w2', MINUTE);
    expect(await journal.queuedBots('w1')).toEqual([]);
    await journal.enqueuePlan(enqueue('b1', 'bob'));
    await journal.enqueuePlan(enqueue('b2', 'bob'));
    await journal.enqueuePlan(enqueue('c1', 'cy'));
    expect(await journal.queuedBots('w1')).toEqual(['bob']);
    expect(await journal.queuedBots('w2')).toEqual(['cy']);
    // A plan taken from the queue is no longer queued; the next one still is.
    await journal.claimNextPlan(bob);
    expect(await journal.queuedBots('w1')).toEqual(['bob']);
    await journal.setPlanStatus('b1', 'succeeded', bob);
    await journal.claimNextPlan(bob);
    expect(await journal.queuedBots('w1')).toEqual([]);
  });
  it("interrupting a bot's plan ends its attempt, run and claim, puts its step back to pending, and leaves the plan to resume", async () => {
    const { journal } = await fresh();
    await journal.addBot({ name: 'ann' });
    const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', MINUTE))! };
    await midPlan(journal, fence, 'w1');
    expect((await journal.listRuns())[0]).toMatchObject({ plan_id: 'p', epoch: fence.epoch, ended_at: null });

    expect(await journal.interruptPlan('p', { code: 'lease_lost', reason: 'renewal late' }, fence)).toEqual(['walk']);
    expect(await stepFields(journal, 'p', 'step_id', 'status', 'failure_count')).toEqual([
      { step_id: 'planks', status: 'succeeded', failure_count: 0 },
      { step_id: 'walk', status: 'pending', failure_count: 1 },
    ]);
    const provenance = (await journal.planProvenance('p'))!;
    expect(provenance.plan.status).toBe('interrupted');
    expect(provenance.steps[1]!.attempts.map((a) => [a.outcome, a.detail])).toEqual([['lease_lost', 'renewal late']]);
    expect(provenance.steps[1]!.transitions.at(-1)).toMatchObject({
      from_status: 'in_progress',
      to_status: 'pending',
      reason: 'lease_lost: renewal late',
    });
    expect((await journal.listRuns())[0]).toMatchObject({ ok: 0, code: 'lease_lost', detail: 'renewal late' });
    // Its in-flight claim went with it: the step's next dispatch claims the key again.
    expect(
      await journal.claimKey({
        key: 'walk-key',
        planId: 'p',
        stepId: 'walk',
        verb: 'navigate',
        args: {},
        runnerId: 'w2',
      }),
    ).toEqual({ claimed: true });
    // The bot's next holder gets it back to resume; a second interruption finds nothing under way.
    expect(await journal.claimNextPlan(fence)).toMatchObject({ planId: 'p', resume: true });
    expect(await journal.interruptPlan('p', { code: 'interrupted', reason: 'again' }, fence)).toEqual([]);
  });

  it('interrupting a plan gives back a claim whose step never journaled its start (it never acted)', async () => {
    const { journal } = await fresh();
    await journal.addBot({ name: 'ann' });
    const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', MINUTE))! };
    await midPlan(journal, fence, 'w1');
    const claim = { key: 'next-key', planId: 'p', stepId: 'next', verb: 'navigate', args: {} };
    await journal.claimKey({ ...claim, runnerId: 'w1' }, fence);
    await journal.interruptPlan('p', { code: 'interrupted', reason: 'its worker died' }, fence);
    expect(await journal.claimKey({ ...claim, runnerId: 'w2' })).toEqual({ claimed: true });
  });

  it('an interrupted step whose idempotency key completed is succeeded, not run again', async () => {
    const { journal } = await fresh();
    await journal.addBot({ name: 'ann' });
    const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', MINUTE))! };
    await midPlan(journal, fence, 'w1');
    await journal.completeKey('walk-key', [], fence);
    await journal.interruptPlan('p', { code: 'interrupted', reason: 'its worker died' }, fence);
    expect(await stepFields(journal, 'p', 'status')).toEqual([{ status: 'succeeded' }, { status: 'succeeded' }]);
  });

  it('a revoked fence refuses every write in this process but its interruption, which the database still judges', async () => {
    const { journal, another } = await fresh();
    await journal.addBot({ name: 'ann' });
    const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', MINUTE))! };
    await midPlan(journal, fence, 'w1');
    journal.revokeFence(fence);
    await expect(journal.setPlanStatus('p', 'failed', fence)).rejects.toMatchObject({
      code: 'lease_lost',
      by: 'revoked',
      message: 'this process gave up epoch 1 of bot "ann" (it fenced itself): it writes nothing more as that holder',
    });
    expect(journal.fencedWritesRefused).toBe(1);
    // The lease still holds in the database: the holder's last write lands.
    expect(await journal.interruptPlan('p', { code: 'lease_lost', reason: 'fenced' }, fence)).toEqual(['walk']);
    // Another process knows nothing of the revocation.
    const other = await another();
    await other.setPlanStatus('p', 'interrupted', fence);
    // Once the lease moved on, the database refuses even the interruption.
    await journal.releaseBot({ ...fence, holder: 'w1' });
    await journal.claimBot('ann', 'w2', MINUTE);
    await expect(journal.interruptPlan('p', { code: 'lease_lost', reason: 'late' }, fence)).rejects.toMatchObject({
      code: 'lease_lost',
      by: 'database',
    });
    expect(journal.fencedWritesRefused).toBe(2);
  });

  it("a worker registers under its node id, taking over its earlier life's row but never a live one's", async () => {
    const { journal, another } = await fresh();
    const node = { id: 'w1', pid: 11, host: 'a', kind: 'worker' };
    await journal.registerRunner(node, { takeOverSilentAfterMs: MINUTE });
    const second = await another();
    await expect(
      second.registerRunner({ ...node, pid: 22, host: 'b' }, { takeOverSilentAfterMs: MINUTE }),
    ).rejects.toThrow(/^"w1" is the id of a live verbtree worker \(pid 11 on a, last heartbeat \d+ ms ago\)$/);
    // Silent long enough (here: any silence at all), or stopped: the node's next life takes the row over.
    await second.registerRunner({ ...node, pid: 22, host: 'b' }, { takeOverSilentAfterMs: 0 });
    await second.stopRunner('w1');
    await journal.registerRunner({ ...node, pid: 33 }, { takeOverSilentAfterMs: MINUTE });
    // The row is the new life's now: a fourth process is refused in its name.
    await expect(second.registerRunner({ ...node, pid: 44 }, { takeOverSilentAfterMs: MINUTE })).rejects.toThrow(
      /pid 33 on a/,
    );
  });
});
