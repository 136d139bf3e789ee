import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import type { ExecutorEvent, PlanResult } from '../../src/executor/events.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { planProvenance } from '../../src/journal/queries.js';
import { JournalRecorder } from '../../src/journal/recorder.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { DIG_IN_NIGHT, spawnDigInMobs, walkOff } from '../helpers/dig-in-night.js';
import { contractBackends } from './backends.js';
import { openTemp } from './helpers.js';

// Issue 30 §2: a defence is a repair of the step safety took over, in the journal as in the result, so a planner
// reading a plan's provenance (`verbtree show`, GET /api/runs/<planId>/provenance) sees what the bot fought or fled.

const walk = { planId: 'p', stepId: 'walk', verb: 'navigate' };
const dig = { planId: 'p', stepId: 'walk/safety-dig_in', verb: 'dig_in' };
const defence = 'defence: dig_in from 3 zombies';

/** A walk taken over by safety: the dig_in under it, the defence told as the walk's repair, then the walk ends ok. */
function defendedWalk(): ExecutorEvent[] {
  const at = 0;
  const started = { at, type: 'step.started', version: '1.0.0', attempt: 1, deadlineAt: 9_000 } as const;
  const ended = { at, type: 'step.ended', outcome: { ok: true }, durationMs: 10, ttfaMs: null } as const;
  return [
    { at, planId: 'p', type: 'plan.accepted', intentId: 'i', steps: 1, resolved: [], warnings: [] },
    { ...walk, ...started, args: {} },
    { ...walk, at, type: 'attempt.started', attempt: 1 },
    { ...walk, at, type: 'step.preempted', by: 'hostile', reason: '3 zombies' },
    { ...dig, ...started, args: {}, parentStepId: 'walk' },
    { ...dig, at, type: 'attempt.started', attempt: 1 },
    { ...dig, ...ended, attempts: 1 },
    { ...walk, at, type: 'step.repair', strategy: defence, code: 'preempted', detail: '3 zombies' },
    { ...walk, at, type: 'step.resumed', after: 'hostile', deadlineAt: 9_000 },
    { ...walk, at, type: 'attempt.started', attempt: 2 },
    { ...walk, ...ended, attempts: 1 },
  ];
}

describe.each(contractBackends())('a defence in the %s journal', (_backend, fresh) => {
  it("is a repair of the step it took over in the plan's provenance, and the taken-over attempt stays preempted", async () => {
    const { journal, another } = await fresh();
    const recorder = new JournalRecorder(journal, { runnerId: null });
    await recorder.beginRun({ planId: 'p', intentId: 'i', steps: [{ stepId: 'walk', type: 'navigate' }], body: {} });
    for (const event of defendedWalk()) recorder.record(event);
    await recorder.flush();
    const { steps } = (await planProvenance(await another(), 'p'))!;
    const byId = new Map(steps.map((s) => [s.step.step_id, s]));
    expect(byId.get('walk')!.repairs).toEqual([{ at: 0, strategy: defence, code: 'preempted', detail: '3 zombies' }]);
    expect(byId.get('walk/safety-dig_in')!.repairs).toEqual([]);
    expect(byId.get('walk')!.attempts.map((a) => [a.number, a.outcome, a.detail])).toEqual([
      [1, 'preempted', 'hostile: 3 zombies'],
      [2, 'ok', null],
    ]);
  });
});

describe('a defence in a journaled run on SimWorld', () => {
  it('the walk safety took over holds its dig_in as a repair, and the run’s end counts it', async () => {
    const { journal } = openTemp();
    const clock = new ManualClock();
    const world = SimWorld.create({ clock, ...DIG_IN_NIGHT });
    spawnDigInMobs(world);
    const registry = createDefaultRegistry();
    const assembly = await assembleJournaled({ registry, world, clock, journal, kind: 'test' });
    const run = await assembly.run({
      planId: 'night',
      intentId: 'i',
      steps: [walkOff],
    });
    let result: PlanResult | undefined;
    void run.result.then((r) => (result = r));
    await clock.runUntil(() => result !== undefined, 300_000);
    await assembly.close();

    const provenance = (await planProvenance(journal, 'night'))!;
    const walkRepairs = provenance.steps.find((s) => s.step.step_id === 'walk')!.repairs;
    const summary = JSON.stringify({ result: [result?.ok, result?.code, result?.detail], walkRepairs });
    expect(walkRepairs[0], summary).toMatchObject({
      strategy: 'defence: dig_in from 3 zombies and a skeleton',
      code: 'preempted',
    });
    const defences = walkRepairs.filter((r) => r.strategy.startsWith('defence: '));
    expect(result, summary).toMatchObject({ defences: defences.length });
    const all = provenance.steps.flatMap((s) => s.repairs);
    expect(result?.repairs, summary).toBe(all.length);
    // The run's end as journaled carries the same counts.
    const events = (await journal.eventHistory('night', { after: 0, limit: 10_000 }))!;
    const end = events.rows.find((e) => e.type === 'plan.ended')?.event as { result: PlanResult } | undefined;
    expect(end?.result, summary).toMatchObject({ repairs: all.length, defences: defences.length });
  });
});
