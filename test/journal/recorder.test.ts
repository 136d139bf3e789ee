import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { WorldError } from '../../src/contracts/world.js';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import type { StepRow } from '../../src/journal/rows.js';
import type { WorldSnapshot } from '../../src/journal/world-snapshot.js';
import { SqliteJournal } from '../../src/journal/sqlite/sqlite-journal.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp, stepFields } from './helpers.js';
import { match } from '../helpers/matchers.js';

const walkAndCraft = {
  planId: 'p1',
  intentId: 'i1',
  steps: [
    { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 }, idempotencyKey: 'planks-once' },
    { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 4, y: 0, z: 0 } } },
  ],
};

async function setup() {
  const { path, journal } = openTemp();
  const clock = new ManualClock();
  const world = SimWorld.create({ clock, inventory: { oak_log: 1 } });
  const assembly = await assembleJournaled({ registry: createDefaultRegistry(), world, clock, journal, kind: 'test' });
  // A second connection sees only what was committed: what a crash would leave.
  const reader = SqliteJournal.open(path, { mustExist: true });
  return { path, journal, clock, world, assembly, reader };
}

describe('journal recorder', () => {
  it('commits a step as in_progress before its first actuator starts, and its outcome before the next step is announced', async () => {
    const { clock, world, assembly, reader } = await setup();
    type Seen = Promise<Pick<StepRow, 'step_id' | 'status'>[]>;
    const seenAtActuator: { command: string; rows: Seen }[] = [];
    const seenAtStart: { stepId: string; rows: Seen }[] = [];
    // A SQLite read happens on call: the promise holds the journal as it was at that moment.
    const rows = () => stepFields(reader, 'p1', 'step_id', 'status');
    const craft = world.craft.bind(world);
    world.craft = async (...args) => {
      seenAtActuator.push({ command: 'craft', rows: rows() });
      return craft(...args);
    };
    const goto = world.goto.bind(world);
    world.goto = async (...args) => {
      seenAtActuator.push({ command: 'goto', rows: rows() });
      return goto(...args);
    };
    // Registered after the recorder: sees the journal as the recorder left it for this event.
    assembly.executor.events.on('event', (event) => {
      if (event.type === 'step.started') seenAtStart.push({ stepId: event.stepId, rows: rows() });
    });
    let done = false;
    void (await assembly.run(walkAndCraft)).result.then(() => (done = true));
    await clock.runUntil(() => done, 60_000);
    expect(seenAtActuator.map((s) => s.command)).toEqual(['craft', 'goto']);
    expect(await seenAtActuator[0]!.rows).toEqual([
      { step_id: 'planks', status: 'in_progress' },
      { step_id: 'walk', status: 'pending' },
    ]);
    expect(seenAtStart[1]!.stepId).toBe('walk');
    expect(await seenAtStart[1]!.rows).toEqual([
      { step_id: 'planks', status: 'succeeded' },
      { step_id: 'walk', status: 'in_progress' },
    ]);
    expect(await seenAtActuator[1]!.rows).toEqual([
      { step_id: 'planks', status: 'succeeded' },
      { step_id: 'walk', status: 'in_progress' },
    ]);
    await reader.close();
    await assembly.close();
  });

  it('journals transitions, attempts, the action trace, effects, SLA aggregates and the completed idempotency key', async () => {
    const { clock, journal, assembly, reader } = await setup();
    let done = false;
    void (await assembly.run(walkAndCraft)).result.then(() => (done = true));
    await clock.runUntil(() => done, 60_000);
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
    await reader.close();
  });

  it('journals one attempt per invocation: a failed attempt closes with its code and the retry opens the next', async () => {
    const { clock, world, journal, assembly, reader } = await setup();
    const craft = world.craft.bind(world);
    let calls = 0;
    world.craft = async (...args) => {
      calls++;
      if (calls === 1) throw new WorldError('runner_error', 'the crafting window never opened');
      return craft(...args);
    };
    let done = false;
    void (await assembly.run({ ...walkAndCraft, steps: [walkAndCraft.steps[0]!] })).result.then(() => (done = true));
    await clock.runUntil(() => done, 60_000);
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
    await reader.close();
    await assembly.close();
  });

  it('journals a plan planned from an intent with its resolved steps, and every started step (sub-goals too) with its parsed args; one attempt row per attempt.started', async () => {
    const { path, journal } = openTemp();
    const clock = new ManualClock();
    const world = SimWorld.create({ clock, inventory: { oak_log: 1 } });
    const planner = {
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
    const assembly = await assembleJournaled({
      registry: createDefaultRegistry(),
      world,
      clock,
      journal,
      kind: 'test',
      planner,
    });
    const events: ExecutorEvent[] = [];
    assembly.executor.events.on('event', (e) => events.push(e));
    let done = false;
    const run = await assembly.run({
      id: 'i9',
      source: 'user',
      goal: 'make sticks',
      urgency: 0.2,
      safety: { allowed: true },
    });
    void run.result.then(() => (done = true));
    await clock.runUntil(() => done, 60_000);
    expect(await run.result).toMatchObject({ ok: true });
    await assembly.close();

    const reader = SqliteJournal.open(path, { mustExist: true });
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
    await reader.close();
  });

  it('journals a step the idempotency check ended before it started: a plan step goes pending to failed, and a planner replacement known from no other event is journaled too', async () => {
    const { path, journal } = openTemp();
    const clock = new ManualClock();
    const world = SimWorld.create({ clock, inventory: { oak_log: 2 } });
    const reuse = (stepId: string) => ({
      stepId,
      type: 'craft_item',
      args: { item: 'stick', count: 4 },
      idempotencyKey: 'planks-once',
    });
    const planner = { name: 'reuser', onFailure: () => Promise.resolve({ steps: [reuse('replacement')] }) };
    const assembly = await assembleJournaled({
      registry: createDefaultRegistry(),
      world,
      clock,
      journal,
      kind: 'test',
      planner,
      policy: { escalation: { budget: 1 } },
    });
    let done = false;
    const run = await assembly.run({ ...walkAndCraft, steps: [walkAndCraft.steps[0]!, reuse('again')] });
    void run.result.then(() => (done = true));
    await clock.runUntil(() => done, 60_000);
    expect(await run.result).toMatchObject({ ok: false });
    await assembly.close();

    const reader = SqliteJournal.open(path, { mustExist: true });
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
    await reader.close();
  });
});
