import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock, systemClock } from '../../src/clock/index.js';
import { WorldError } from '../../src/contracts/world.js';
import type { ExecutorEvent, PlanResult } from '../../src/executor/events.js';
import type { ExecutionRun } from '../../src/executor/executor.js';
import type { Planner } from '../../src/executor/planner.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import type { Journal } from '../../src/journal/journal.js';
import type { StepRow } from '../../src/journal/rows.js';
import type { WorldSnapshot } from '../../src/journal/world-snapshot.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { match } from '../helpers/matchers.js';
import { contractBackends } from './backends.js';
import { stepFields } from './helpers.js';

const walkAndCraft = {
  planId: 'p1',
  intentId: 'i1',
  steps: [
    { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 }, idempotencyKey: 'planks-once' },
    { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 4, y: 0, z: 0 } } },
  ],
};

/**
 * Records, as each commits, the events the journal was asked to write (`type stepId`): what is durable at any moment
 * the test looks, on either backend.
 */
function watchCommits(journal: Journal): string[] {
  const committed: string[] = [];
  const record = journal.recordBatch.bind(journal);
  journal.recordBatch = async (writes, fence) => {
    const answers = await record(writes, fence);
    for (const write of writes) {
      if (write.kind !== 'event') continue;
      const { event } = write.record;
      committed.push('stepId' in event ? `${event.type} ${event.stepId}` : event.type);
    }
    return answers;
  };
  return committed;
}

describe.each(contractBackends())('the journal recorder on %s', (backend, fresh) => {
  /**
   * A journaled executor on a SimWorld, and a second connection to its journal (what a crash would leave). SQLite
   * answers on call, so its runs go on a manual clock; PostgreSQL answers over the network, while a manual clock
   * would fire every watchdog at once, so its runs go on the system clock.
   */
  async function setup(options: { inventory?: Record<string, number>; planner?: Planner; budget?: number } = {}) {
    const { journal, another } = await fresh();
    const clock = backend === 'sqlite' ? new ManualClock() : systemClock;
    const world = SimWorld.create({ clock, inventory: options.inventory ?? { oak_log: 1 } });
    const assembly = await assembleJournaled({
      registry: createDefaultRegistry(),
      world,
      clock,
      journal,
      kind: 'test',
      ...(options.planner ? { planner: options.planner } : {}),
      ...(options.budget ? { policy: { escalation: { budget: options.budget } } } : {}),
    });
    const reader = await another();
    const ended = async (run: ExecutionRun): Promise<PlanResult> => {
      if (clock instanceof ManualClock) {
        let done = false;
        void run.result.finally(() => (done = true));
        await clock.runUntil(() => done, 60_000);
      }
      return run.result;
    };
    return { journal, world, assembly, reader, ended };
  }

  it('commits a step as in_progress before its first actuator starts, and its outcome before the next step is announced', async () => {
    const { journal, world, assembly, reader, ended } = await setup();
    const committed = watchCommits(journal);
    type Seen = { committed: string[]; rows?: Pick<StepRow, 'step_id' | 'status'>[] };
    const atActuator: (Seen & { command: string })[] = [];
    const atStart: (Seen & { stepId: string })[] = [];
    // What is durable as the actuator is called, and the steps as another connection reads them while it waits.
    const rows = () => stepFields(reader, 'p1', 'step_id', 'status');
    const craft = world.craft.bind(world);
    world.craft = async (...args) => {
      atActuator.push({ command: 'craft', committed: [...committed], rows: await rows() });
      return craft(...args);
    };
    const goto = world.goto.bind(world);
    world.goto = async (...args) => {
      atActuator.push({ command: 'goto', committed: [...committed], rows: await rows() });
      return goto(...args);
    };
    assembly.executor.events.on('event', (event) => {
      if (event.type === 'step.started') atStart.push({ stepId: event.stepId, committed: [...committed] });
    });
    expect(await ended(await assembly.run(walkAndCraft))).toMatchObject({ ok: true });
    await assembly.close();
    expect(atActuator.map((s) => s.command)).toEqual(['craft', 'goto']);
    const [atCraft, atGoto] = atActuator;
    expect(atCraft!.committed).toEqual(expect.arrayContaining(['step.started planks', 'attempt.started planks']));
    expect(atCraft!.rows).toEqual([
      { step_id: 'planks', status: 'in_progress' },
      { step_id: 'walk', status: 'pending' },
    ]);
    expect(atStart.map((s) => s.stepId)).toEqual(['planks', 'walk']);
    expect(atStart[1]!.committed).toContain('step.ended planks');
    expect(atGoto!.committed).toEqual(expect.arrayContaining(['step.started walk', 'attempt.started walk']));
    expect(atGoto!.rows).toEqual([
      { step_id: 'planks', status: 'succeeded' },
      { step_id: 'walk', status: 'in_progress' },
    ]);
  });

  it('journals transitions, attempts, the action trace, effects, SLA aggregates and the completed idempotency key', async () => {
    const { journal, assembly, ended } = await setup();
    expect(await ended(await assembly.run(walkAndCraft))).toMatchObject({ ok: true });
    await assembly.close();
    const provenance = (await journal.planProvenance('p1'))!;
    const [planks, walk] = provenance.steps;
    expect(walk!.transitions.map((t) => t.to_status)).toEqual(['pending', 'in_progress', 'succeeded']);
    const attempts = provenance.steps.flatMap((s) => s.attempts);
    expect(attempts.map((a) => [a.step_id, a.number, a.outcome])).toEqual([
      ['planks', 1, 'ok'],
      ['walk', 1, 'ok'],
    ]);
    expect(attempts.every((a) => a.last_actuator_at !== null && a.ended_at !== null)).toBe(true);
    expect(attempts.flatMap((a) => a.actions).map((a) => [a.step_id, a.command])).toEqual([
      ['planks', 'craft'],
      ['walk', 'goto'],
    ]);
    const effects = provenance.steps.flatMap((s) => s.effects);
    expect(effects.map((e) => e.step_id)).toEqual(['planks', 'walk']);
    expect((JSON.parse(planks!.effects[0]!.post) as WorldSnapshot).inventory).toEqual({ oak_planks: 4 });
    expect(await journal.completedKeys()).toEqual(['planks-once']);
    const claim = { key: 'planks-once', planId: 'p2', stepId: 'x', verb: 'craft_item', args: {}, runnerId: null };
    expect(await journal.claimKey(claim)).toMatchObject({
      claimed: false,
      holder: { planId: 'p1', stepId: 'planks', verb: 'craft_item', state: 'completed' },
    });
    expect((await journal.measuredSla()).map((m) => [m.capability, m.runs, m.successes])).toEqual([
      ['craft_item', 1, 1],
      ['navigate', 1, 1],
    ]);
    expect(provenance.plan.status).toBe('succeeded');
    expect(provenance.runs.map((r) => [r.ok, r.ended_at !== null])).toEqual([[1, true]]);
  });

  it('journals one attempt per invocation: a failed attempt closes with its code and the retry opens the next', async () => {
    const { world, journal, assembly, ended } = await setup();
    const craft = world.craft.bind(world);
    let calls = 0;
    world.craft = async (...args) => {
      calls++;
      if (calls === 1) throw new WorldError('runner_error', 'the crafting window never opened');
      return craft(...args);
    };
    expect(await ended(await assembly.run({ ...walkAndCraft, steps: [walkAndCraft.steps[0]!] }))).toMatchObject({
      ok: true,
    });
    await assembly.close();
    const [planks] = (await journal.planProvenance('p1'))!.steps;
    expect(planks!.attempts.map((a) => [a.number, a.outcome])).toEqual([
      [1, 'runner_error'],
      [2, 'ok'],
    ]);
    expect(planks!.attempts[0]!.detail).toContain('the crafting window never opened');
    expect(planks!.step).toMatchObject({ attempts: 2, status: 'succeeded' });
    expect(planks!.attempts.flatMap((a) => a.actions).map((a) => [a.command, a.error])).toEqual([
      ['craft', 'the crafting window never opened'],
      ['craft', null],
    ]);
  });

  it('journals a plan planned from an intent with its resolved steps, and every started step (sub-goals too) with its parsed args; one attempt row per attempt.started', async () => {
    const planner: Planner = {
      name: 'scripted',
      plan: () =>
        Promise.resolve({
          planId: 'from-intent',
          intentId: 'i9',
          steps: [
            { stepId: 'sticks', type: 'craft_item', args: { item: 'stick', count: 4 }, idempotencyKey: 'sticks-once' },
          ],
        }),
      onFailure: () => Promise.resolve({ giveUp: 'not in this test' }),
    };
    const { assembly, reader, ended } = await setup({ planner });
    const events: ExecutorEvent[] = [];
    assembly.executor.events.on('event', (e) => events.push(e));
    const run = await assembly.run({
      id: 'i9',
      source: 'user',
      goal: 'make sticks',
      urgency: 0.2,
      safety: { allowed: true },
    });
    expect(await ended(run)).toMatchObject({ ok: true });
    await assembly.close();

    const provenance = (await reader.planProvenance('from-intent'))!;
    expect(JSON.parse(provenance.plan.body!)).toEqual({
      planId: 'from-intent',
      intentId: 'i9',
      steps: [
        {
          stepId: 'sticks',
          type: 'craft_item',
          version: match.any(String),
          args: { item: 'stick', count: 4 },
          idempotencyKey: 'sticks-once',
        },
      ],
    });
    const steps = provenance.steps.map((s) => s.step);
    const subgoal = steps.find((s) => s.parent_step_id === 'sticks');
    expect(steps[0]).toMatchObject({ step_id: 'sticks', idempotency_key: 'sticks-once', status: 'succeeded' });
    expect(JSON.parse(steps[0]!.args!)).toEqual({ item: 'stick', count: 4 });
    expect(subgoal).toMatchObject({ status: 'succeeded' });
    expect(JSON.parse(subgoal!.args!)).toMatchObject({ item: 'oak_planks' });
    // The parent's guard failed first (no planks): its one attempt opens after the sub-goal, not at dispatch.
    const attempts = provenance.steps
      .flatMap((s) => s.attempts)
      .sort((a, b) => a.id - b.id)
      .map((a) => ({ step_id: a.step_id, number: a.number, outcome: a.outcome }));
    const announced = events
      .filter((e) => e.type === 'attempt.started')
      .map((e) => ({ step_id: e.stepId, number: (e as { attempt: number }).attempt, outcome: 'ok' }));
    expect(attempts).toEqual(announced);
    expect(attempts.map((a) => (a as { step_id: string }).step_id)).toEqual([subgoal!.step_id, 'sticks']);
  });

  it('journals a step the idempotency check ended before it started: a plan step goes pending to failed, and a planner replacement known from no other event is journaled too', async () => {
    const reuse = (stepId: string) => ({
      stepId,
      type: 'craft_item',
      args: { item: 'stick', count: 4 },
      idempotencyKey: 'planks-once',
    });
    const planner = { name: 'reuser', onFailure: () => Promise.resolve({ steps: [reuse('replacement')] }) };
    const { assembly, reader, ended } = await setup({ inventory: { oak_log: 2 }, planner, budget: 1 });
    const run = await assembly.run({ ...walkAndCraft, steps: [walkAndCraft.steps[0]!, reuse('again')] });
    expect(await ended(run)).toMatchObject({ ok: false });
    await assembly.close();

    expect(await stepFields(reader, 'p1', 'step_id', 'status', 'outcome_code')).toEqual([
      { step_id: 'planks', status: 'succeeded', outcome_code: 'ok' },
      { step_id: 'again', status: 'failed', outcome_code: 'duplicate_dispatch' },
      { step_id: 'replacement', status: 'failed', outcome_code: 'duplicate_dispatch' },
    ]);
    const again = (await reader.planProvenance('p1'))!.steps.find((s) => s.step.step_id === 'again')!;
    expect(again.transitions.map((t) => [t.from_status, t.to_status])).toEqual([
      [null, 'pending'],
      ['pending', 'failed'],
    ]);
  });
});
