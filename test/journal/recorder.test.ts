import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { WorldError } from '../../src/contracts/world.js';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import type { AttemptRow, StepRow, TransitionRow } from '../../src/journal/rows.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp } from './helpers.js';
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
  const reader = new Database(path, { readonly: true });
  return { path, journal, clock, world, assembly, reader };
}

describe('journal recorder', () => {
  it('commits a step as in_progress before its first actuator starts, and its outcome before the next step is announced', async () => {
    const { clock, world, assembly, reader } = await setup();
    const seenAtActuator: { command: string; rows: Pick<StepRow, 'step_id' | 'status'>[] }[] = [];
    const seenAtStart: { stepId: string; rows: Pick<StepRow, 'step_id' | 'status'>[] }[] = [];
    const rows = () =>
      reader.prepare('SELECT step_id, status FROM steps ORDER BY seq').all() as Pick<StepRow, 'step_id' | 'status'>[];
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
    void assembly.run(walkAndCraft).result.then(() => (done = true));
    await clock.runUntil(() => done, 60_000);
    expect(seenAtActuator.map((s) => s.command)).toEqual(['craft', 'goto']);
    expect(seenAtActuator[0]!.rows).toEqual([
      { step_id: 'planks', status: 'in_progress' },
      { step_id: 'walk', status: 'pending' },
    ]);
    expect(seenAtStart[1]).toEqual({
      stepId: 'walk',
      rows: [
        { step_id: 'planks', status: 'succeeded' },
        { step_id: 'walk', status: 'in_progress' },
      ],
    });
    expect(seenAtActuator[1]!.rows).toEqual([
      { step_id: 'planks', status: 'succeeded' },
      { step_id: 'walk', status: 'in_progress' },
    ]);
    reader.close();
    await assembly.close();
  });

  it('journals transitions, attempts, the action trace, effects, SLA aggregates and the completed idempotency key', async () => {
    const { clock, journal, assembly, reader } = await setup();
    let done = false;
    void assembly.run(walkAndCraft).result.then(() => (done = true));
    await clock.runUntil(() => done, 60_000);
    const transitions = journal.db
      .prepare("SELECT * FROM step_transitions WHERE step_id = 'walk' ORDER BY id")
      .all() as TransitionRow[];
    expect(transitions.map((t) => t.to_status)).toEqual(['pending', 'in_progress', 'succeeded']);
    const attempts = journal.db.prepare('SELECT * FROM attempts ORDER BY id').all() as AttemptRow[];
    expect(attempts.map((a) => [a.step_id, a.number, a.outcome])).toEqual([
      ['planks', 1, 'ok'],
      ['walk', 1, 'ok'],
    ]);
    expect(attempts.every((a) => a.last_actuator_at !== null && a.ended_at !== null)).toBe(true);
    const actions = journal.db.prepare('SELECT step_id, command FROM actions ORDER BY id').all();
    expect(actions).toEqual([
      { step_id: 'planks', command: 'craft' },
      { step_id: 'walk', command: 'goto' },
    ]);
    const effects = journal.db.prepare('SELECT step_id, post FROM effects ORDER BY id').all() as {
      step_id: string;
      post: string;
    }[];
    expect(effects.map((e) => e.step_id)).toEqual(['planks', 'walk']);
    expect((JSON.parse(effects[0]!.post) as { inventory: unknown }).inventory).toEqual({ oak_planks: 4 });
    expect(journal.db.prepare('SELECT key, plan_id, step_id FROM idempotency').all()).toEqual([
      { key: 'planks-once', plan_id: 'p1', step_id: 'planks' },
    ]);
    expect(
      journal.db.prepare('SELECT capability, runs, successes FROM capability_sla ORDER BY capability').all(),
    ).toEqual([
      { capability: 'craft_item', runs: 1, successes: 1 },
      { capability: 'navigate', runs: 1, successes: 1 },
    ]);
    expect(journal.db.prepare('SELECT status FROM plans').get()).toEqual({ status: 'succeeded' });
    expect(journal.db.prepare('SELECT ok, ended_at IS NOT NULL AS ended FROM runs').get()).toEqual({ ok: 1, ended: 1 });
    reader.close();
    await assembly.close();
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
    void assembly.run({ ...walkAndCraft, steps: [walkAndCraft.steps[0]!] }).result.then(() => (done = true));
    await clock.runUntil(() => done, 60_000);
    const attempts = journal.db.prepare('SELECT number, outcome, detail FROM attempts ORDER BY id').all() as Pick<
      AttemptRow,
      'number' | 'outcome' | 'detail'
    >[];
    expect(attempts.map((a) => [a.number, a.outcome])).toEqual([
      [1, 'runner_error'],
      [2, 'ok'],
    ]);
    expect(attempts[0]!.detail).toContain('the crafting window never opened');
    expect(journal.db.prepare("SELECT attempts, status FROM steps WHERE step_id = 'planks'").get()).toEqual({
      attempts: 2,
      status: 'succeeded',
    });
    expect(journal.db.prepare('SELECT command, error FROM actions ORDER BY id').all()).toEqual([
      { command: 'craft', error: 'the crafting window never opened' },
      { command: 'craft', error: null },
    ]);
    reader.close();
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
    const run = assembly.run({
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

    const reader = new Database(path, { readonly: true });
    const plan = reader.prepare("SELECT body FROM plans WHERE plan_id = 'from-intent'").get() as { body: string };
    expect(JSON.parse(plan.body)).toEqual({
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
    const steps = reader
      .prepare('SELECT step_id, parent_step_id, args, idempotency_key, status FROM steps ORDER BY seq')
      .all() as Pick<StepRow, 'step_id' | 'parent_step_id' | 'args' | 'idempotency_key' | 'status'>[];
    const subgoal = steps.find((s) => s.parent_step_id === 'sticks');
    expect(steps[0]).toMatchObject({ step_id: 'sticks', idempotency_key: 'sticks-once', status: 'succeeded' });
    expect(JSON.parse(steps[0]!.args!)).toEqual({ item: 'stick', count: 4 });
    expect(subgoal).toMatchObject({ status: 'succeeded' });
    expect(JSON.parse(subgoal!.args!)).toMatchObject({ item: 'oak_planks' });
    // The parent's guard failed first (no planks): its one attempt opens after the sub-goal, not at dispatch.
    const attempts = reader.prepare('SELECT step_id, number, outcome FROM attempts ORDER BY id').all();
    const announced = events
      .filter((e) => e.type === 'attempt.started')
      .map((e) => ({ step_id: e.stepId, number: (e as { attempt: number }).attempt, outcome: 'ok' }));
    expect(attempts).toEqual(announced);
    expect(attempts.map((a) => (a as { step_id: string }).step_id)).toEqual([subgoal!.step_id, 'sticks']);
    reader.close();
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
    const run = assembly.run({ ...walkAndCraft, steps: [walkAndCraft.steps[0]!, reuse('again')] });
    void run.result.then(() => (done = true));
    await clock.runUntil(() => done, 60_000);
    expect(await run.result).toMatchObject({ ok: false });
    await assembly.close();

    const reader = new Database(path, { readonly: true });
    const steps = reader.prepare('SELECT step_id, status, outcome_code FROM steps ORDER BY seq').all();
    expect(steps).toEqual([
      { step_id: 'planks', status: 'succeeded', outcome_code: 'ok' },
      { step_id: 'again', status: 'failed', outcome_code: 'duplicate_dispatch' },
      { step_id: 'replacement', status: 'failed', outcome_code: 'duplicate_dispatch' },
    ]);
    const transitions = reader
      .prepare("SELECT from_status, to_status FROM step_transitions WHERE step_id = 'again' ORDER BY id")
      .all();
    expect(transitions).toEqual([
      { from_status: null, to_status: 'pending' },
      { from_status: 'pending', to_status: 'failed' },
    ]);
    reader.close();
  });
});
