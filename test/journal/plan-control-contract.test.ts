import { describe, expect, it } from 'vitest';
import type { Journal } from '../../src/journal/journal.js';
import { contractBackends } from './backends.js';

const MINUTE = 60_000;
const plan = (planId: string) => ({ planId, intentId: 'i', steps: [{ stepId: 's', type: 'navigate' }] });
const enqueue = (journal: Journal, planId: string) =>
  journal.enqueuePlan({ ...plan(planId), bot: 'ann', body: plan(planId) });

async function heldAnn(journal: Journal) {
  await journal.addBot({ name: 'ann' });
  return { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', MINUTE))! };
}

describe.each(contractBackends())("an operator's control of a fleet plan on the %s journal", (_backend, fresh) => {
  it('cancels a queued plan at once: no holder is handed it, and nothing more can be asked of it', async () => {
    const { journal } = await fresh();
    const fence = await heldAnn(journal);
    await enqueue(journal, 'p1');
    await enqueue(journal, 'p2');
    expect(await journal.requestPlanControl('p1', 'cancel', 'not wanted')).toEqual({
      outcome: 'applied',
      status: 'cancelled',
    });
    expect(await journal.plan('p1')).toMatchObject({ status: 'cancelled' });
    expect(await journal.claimNextPlan(fence)).toMatchObject({ planId: 'p2', resume: false });
    for (const action of ['cancel', 'pause', 'resume'] as const)
      expect(await journal.requestPlanControl('p1', action, 'again')).toEqual({
        outcome: 'refused',
        status: 'cancelled',
        why: 'it has already ended (cancelled)',
      });
    expect(await journal.listBots()).toMatchObject([{ name: 'ann', plan: 'p2', queued: 0 }]);
  });

  it('marks a running plan for its holder: pause, resume and cancel each once, in an order that means something', async () => {
    const { journal, another } = await fresh();
    const fence = await heldAnn(journal);
    await enqueue(journal, 'p1');
    await journal.claimNextPlan(fence);
    const gateway = await another();
    const ask = (action: 'pause' | 'resume' | 'cancel') => gateway.requestPlanControl('p1', action, `${action} now`);

    expect(await ask('resume')).toEqual({ outcome: 'refused', status: 'running', why: 'it is not paused' });
    expect(await ask('pause')).toEqual({ outcome: 'requested', status: 'running' });
    expect(await journal.planControl('p1')).toEqual({ control: 'pause', reason: 'pause now' });
    expect(await ask('pause')).toEqual({ outcome: 'refused', status: 'running', why: 'it is already paused' });
    expect(await ask('resume')).toEqual({ outcome: 'requested', status: 'running' });
    expect(await journal.planControl('p1')).toEqual({ control: null, reason: null });
    expect(await ask('cancel')).toEqual({ outcome: 'requested', status: 'running' });
    expect(await journal.planControl('p1')).toEqual({ control: 'cancel', reason: 'cancel now' });
    expect(await ask('cancel')).toMatchObject({ outcome: 'refused', why: 'it has already been cancelled' });
    expect(await ask('pause')).toMatchObject({ outcome: 'refused', why: 'it has already been cancelled' });
    // The request never ends the plan by itself: its holder does, when it applies it.
    expect(await journal.plan('p1')).toMatchObject({ status: 'running' });

    await journal.setPlanStatus('p1', 'failed', fence);
    expect(await ask('pause')).toEqual({ outcome: 'refused', status: 'failed', why: 'it has already ended (failed)' });
  });

  it('leaves a plan no fleet bot was queued for, or none at all, to whoever runs it', async () => {
    const { journal } = await fresh();
    await journal.beginRun({ planId: 'local', intentId: 'i', steps: [], body: plan('local'), runnerId: null });
    expect(await journal.requestPlanControl('local', 'cancel', 'x')).toEqual({ outcome: 'not_fleet' });
    expect(await journal.requestPlanControl('nowhere', 'pause', 'x')).toEqual({ outcome: 'not_fleet' });
    expect(await journal.planControl('nowhere')).toBeNull();
  });

  it('a cancel racing a claim: every plan is either cancelled and never handed out, or handed out and marked', async () => {
    const { journal, another } = await fresh();
    const fence = await heldAnn(journal);
    const gateway = await another();
    const plans = Array.from({ length: 12 }, (_, i) => `p${i}`);
    for (const planId of plans) await enqueue(journal, planId);
    const handed: string[] = [];
    const claims = (async () => {
      for (;;) {
        const next = await journal.claimNextPlan(fence);
        if (!next) {
          if ((await journal.listBots())[0]?.queued === 0) return;
          continue;
        }
        handed.push(next.planId);
        await journal.setPlanStatus(next.planId, 'succeeded', fence);
      }
    })();
    const answers = await Promise.all(plans.map((p) => gateway.requestPlanControl(p, 'cancel', 'race')));
    await claims;
    for (const [i, planId] of plans.entries()) {
      const answer = answers[i]!;
      const status = (await journal.plan(planId))!.status;
      if (answer.outcome === 'applied') {
        expect(handed).not.toContain(planId);
        expect(status).toBe('cancelled');
      } else {
        expect(handed).toContain(planId);
        expect(status).toBe('succeeded');
      }
    }
  });
});
