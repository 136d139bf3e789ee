import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import type { FailureContext, Planner, PlannerReply } from '../../src/executor/planner.js';
import { harness, plan } from '../helpers/executor.js';
import { match } from '../helpers/matchers.js';

/** A 5-block island: anything farther is unreachable, so navigate fails with no_path. */
const island = { ground: { radius: 5 } };
const walkTo = (stepId: string, x: number) => ({
  stepId,
  type: 'navigate',
  args: { target: { kind: 'near', x, y: 0, z: 0, range: 1 } },
});

function scriptedPlanner(name: string, replies: PlannerReply[], seen: FailureContext[] = []): Planner {
  return {
    name,
    onFailure(context) {
      seen.push(context);
      return Promise.resolve(replies.shift() ?? { giveUp: 'out of ideas' });
    },
  };
}

describe('escalation to the planner', () => {
  it('does not retry a path search the world already answered: asks the planner with the failure and its evidence, and runs its new steps', async () => {
    const seen: FailureContext[] = [];
    const h = await harness(island, { planner: scriptedPlanner('htn', [{ steps: [walkTo('closer', 3)] }], seen) });
    const result = await h.run(plan(walkTo('far', 40), walkTo('never-run', 2)));
    expect(result).toMatchObject({ ok: true, escalations: 1 });
    expect(result.steps.map((s) => [s.step.stepId, s.outcome.ok])).toEqual([
      ['far', false],
      ['closer', true],
    ]);
    // The goal lies off the island: the same search from the same place would meet the same world.
    // (navigate's own tree tries its walk again inside the attempt: counted, marked inTree, not the executor's.)
    expect(h.events.filter((e) => e.type === 'step.retry' && !e.inTree)).toHaveLength(0);
    const [context] = seen;
    expect(context).toMatchObject({
      rung: 1,
      failedStep: { stepId: 'far' },
      failure: { code: match.stringMatching(/no_path|stuck/) },
    });
    expect(context!.failure.detail).toMatch(/repath skipped: the path search already found no way/);
    expect(context!.evidence.map((e) => e.type)).toEqual(expect.arrayContaining(['step.started', 'step.ended']));
  });

  it('climbs to a stronger planner when the policy sends a give-up on, then ends with escalation_exhausted and an incident', async () => {
    const weak = scriptedPlanner('weak', [{ giveUp: 'no idea' }]);
    const strong = scriptedPlanner('strong', [{ steps: [walkTo('still-far', 41)] }]);
    const h = await harness(island, {
      planner: [weak, strong],
      policy: { escalation: { budget: 3, strongerAfterGiveUp: true } },
    });
    const result = await h.run(plan(walkTo('far', 40)));
    expect(result).toMatchObject({ ok: false, code: 'escalation_exhausted', escalations: 3 });
    const rungs = h.events
      .filter((e): e is EventOf<'plan.escalated'> => e.type === 'plan.escalated')
      .map((e) => e.planner);
    expect(rungs).toEqual(['weak', 'strong', 'strong']);
    expect(h.events.find((e) => e.type === 'incident')).toMatchObject({ kind: 'escalation_exhausted' });
  });

  it('flags planner.loop when the planner keeps sending a plan like the ones that failed, and nudges it', async () => {
    const seen: FailureContext[] = [];
    const same = (n: number) => ({ steps: [walkTo(`again-${n}`, 40)] });
    const h = await harness(island, {
      planner: scriptedPlanner('stubborn', [same(1), same(2), same(3), same(4), same(5)], seen),
      policy: { escalation: { budget: 5 } },
    });
    const result = await h.run(plan(walkTo('far', 40)));
    expect(result.code).toBe('escalation_exhausted');
    const loop = h.events.find((e): e is EventOf<'planner.loop'> => e.type === 'planner.loop');
    expect(loop!.similarity).toBeGreaterThanOrEqual(0.6);
    const nudged = seen.find((c) => c.nudge);
    expect(nudged!.nudge).toContain('loop detected');
    expect(h.events.filter((e) => e.type === 'plan.escalated').some((e) => e.loop)).toBe(true);
  });

  it('treats an invalid reply as a failed rung, never running it', async () => {
    const h = await harness(island, {
      planner: scriptedPlanner('sloppy', [{ steps: [{ stepId: 'x', type: 'teleport', args: {} }] }]),
      policy: { escalation: { budget: 1 } },
    });
    const result = await h.run(plan(walkTo('far', 40)));
    expect(result).toMatchObject({ ok: false, code: 'escalation_exhausted' });
    expect(result.detail).toContain('returned an invalid plan');
    expect(result.steps).toHaveLength(1);
  });

  it("without a planner, fails the plan with the step's own code", async () => {
    const h = await harness(island);
    const result = await h.run(plan(walkTo('far', 40)));
    expect(result.ok).toBe(false);
    expect(result.code).toBe(result.steps[0]!.outcome.ok ? undefined : result.steps[0]!.outcome.code);
  });
});
