import { describe, expect, it } from 'vitest';
import { summaryTable } from '../../src/cli/progress.js';
import type { FailureContext, Planner } from '../../src/executor/planner.js';
import { DIG_IN_NIGHT, spawnDigInMobs, walkOff } from '../helpers/dig-in-night.js';
import { harness, plan } from '../helpers/executor.js';

const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 0, y: 0, z: -20 } } };

// Issue 30 §2: a defence is a repair a planner sees. Safety taking a step over used to show only as nested steps
// (`walk/safety-attack_entity`): the step's and the plan's `repairs` said 0, and the CLI's closing line "repairs 0".
// The dig-in's counts are checked in defense-shelters.test.ts.
describe('a defence is a repair of the step it took over, on SimWorld', () => {
  it('a zombie met with a stone sword at full health is fought, and the walk ends verified with one repair, a defence', async () => {
    const h = await harness({ ground: { radius: 40 }, inventory: { stone_sword: 1 } });
    h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 0.5, y: 0, z: -4.5 } });
    const result = await h.run(plan(walk), 300_000);
    const summary = JSON.stringify({
      result: [result.ok, result.code, result.detail],
      steps: result.steps.map((s) => [s.step.stepId, s.outcome.ok, s.repairs, s.defences]),
    });
    expect(result.ok, summary).toBe(true);
    expect(result.steps.map((s) => s.step.stepId)).toContain('walk/safety-attack_entity');
    expect(result.steps.at(-1), summary).toMatchObject({ step: { stepId: 'walk' }, repairs: 1, defences: 1 });
    expect(result).toMatchObject({ repairs: 1, defences: 1 });
    expect(h.events).toContainEqual(
      expect.objectContaining({
        type: 'step.repair',
        stepId: 'walk',
        strategy: 'defence: attack_entity from a zombie',
        code: 'preempted',
      }),
    );
    expect(summaryTable(result)).toMatch(/\(retries \d+, repairs 1 \(1 defence\), escalations 0\)$/);
  });

  it('a walk that fails after a dig-in escalates with the defence among its evidence, so the planner sees it', async () => {
    const seen: FailureContext[] = [];
    const planner: Planner = {
      name: 'watcher',
      onFailure: (context) => {
        seen.push(context);
        return Promise.resolve({ giveUp: 'seen enough' });
      },
    };
    const h = await harness(DIG_IN_NIGHT, { planner });
    spawnDigInMobs(h.world);
    const result = await h.run(plan(walkOff));
    const summary = JSON.stringify({ result: [result.ok, result.code, result.detail], asked: seen.length });
    // The mobs stay about the hole: the walk ends preempted, and its planner is asked.
    expect(seen[0]?.failedStep.stepId, summary).toBe('walk');
    expect(seen[0]!.evidence, summary).toContainEqual(
      expect.objectContaining({
        type: 'step.repair',
        stepId: 'walk',
        strategy: 'defence: dig_in from 3 zombies and a skeleton',
      }),
    );
  });

  it('a step no safety took over counts no defence, and the closing line says only its repairs', async () => {
    const h = await harness({ ground: { radius: 40 } });
    const result = await h.run(plan(walk), 300_000);
    expect(result).toMatchObject({ ok: true, repairs: 0, defences: 0 });
    expect(summaryTable(result)).toMatch(/\(retries 0, repairs 0, escalations 0\)$/);
  });
});
