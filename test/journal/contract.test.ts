import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock, systemClock } from '../../src/clock/index.js';
import type { Expectation } from '../../src/contracts/expectation.js';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { runHealthCheck } from '../../src/journal/health-check.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import type { StepStatus } from '../../src/journal/rows.js';
import { LeaseHeldError, PlanLease } from '../../src/journal/lease.js';
import { JournalRecorder } from '../../src/journal/recorder.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { contractBackends } from './backends.js';
import { stepFields } from './helpers.js';
import { crashedMidStep } from './seed.js';

const base = { planId: 'p', at: 0 };
const sticks: Expectation = { kind: 'inventory', item: 'stick', atLeast: 4 };
const step = (stepId: string, verb: string) => ({ ...base, stepId, verb });

/** A plan's events as an executor emits them: a craft that succeeds, a walk that fails after a retry. */
function scriptedRun(recorder: JournalRecorder): void {
  const emit = (event: ExecutorEvent) => recorder.record(event);
  const resolved = [
    { stepId: 'a', type: 'craft_item', version: '1.0.0', args: { item: 'stick', count: 4 }, idempotencyKey: 'ka' },
    { stepId: 'b', type: 'navigate', version: '1.0.0', args: { target: { kind: 'block', x: 3, y: 0, z: 0 } } },
  ];
  emit({ ...base, type: 'plan.accepted', intentId: 'i', steps: 2, resolved, warnings: [] });
  emit({
    ...step('a', 'craft_item'),
    type: 'step.started',
    version: '1.0.0',
    attempt: 1,
    deadlineAt: 5_000,
    args: resolved[0]!.args,
    idempotencyKey: 'ka',
  });
  emit({
    ...step('a', 'craft_item'),
    type: 'step.expects',
    expectations: [sticks],
  });
  emit({ ...step('a', 'craft_item'), type: 'attempt.started', attempt: 1 });
  const craft = recorder.actionStarted('craft', { item: 'stick' }, { x: 1, y: 0, z: 0 });
  emit({ ...step('a', 'craft_item'), type: 'step.firstAction', ttfaMs: 12, command: 'craft' });
  recorder.hooks.nodeStates!({
    runId: 1,
    tree: 'craft_item',
    at: 0,
    changes: [{ nodePath: 'craft_item', nodeType: 'root', from: 'ready', to: 'running' }],
  });
  recorder.actionSettled(craft);
  emit({
    ...step('a', 'craft_item'),
    type: 'step.ended',
    outcome: { ok: true },
    durationMs: 40,
    attempts: 1,
    ttfaMs: 12,
  });
  emit({
    ...step('b', 'navigate'),
    type: 'step.started',
    version: '1.0.0',
    attempt: 1,
    deadlineAt: 9_000,
    args: resolved[1]!.args,
  });
  emit({ ...step('b', 'navigate'), type: 'attempt.started', attempt: 1 });
  recorder.actionSettled(recorder.actionStarted('goto', { x: 3 }), 'no path');
  emit({
    ...step('b', 'navigate'),
    type: 'step.retry',
    attempt: 1,
    delayMs: 10,
    code: 'stuck.path',
    detail: 'no path',
  });
  emit({ ...step('b', 'navigate'), type: 'attempt.started', attempt: 2 });
  emit({
    ...step('b', 'navigate'),
    type: 'step.ended',
    outcome: { ok: false, code: 'stuck.path', detail: 'still no path' },
    durationMs: 90,
    attempts: 2,
    ttfaMs: null,
  });
  emit({
    ...base,
    type: 'plan.ended',
    result: {
      planId: 'p',
      ok: false,
      code: 'stuck.path',
      detail: 'still no path',
      steps: [],
      escalations: 0,
      repairs: 0,
      defences: 0,
      retries: 1,
      durationMs: 130,
    },
  });
}

describe.each(contractBackends())('the %s journal', (backend, fresh) => {
  it('is at its newest schema, and reopening it migrates nothing twice', async () => {
    const { journal, another } = await fresh();
    const version = await journal.schemaVersion();
    expect(version).toBeGreaterThan(0);
    expect(journal.backend).toBe(backend);
    expect(await (await another()).schemaVersion()).toBe(version);
  });

  it("commits a batch of a run's writes whole, answering each in order, or none of it", async () => {
    const { journal } = await fresh();
    const begin = {
      planId: 'p',
      intentId: 'i',
      steps: [{ stepId: 'a', type: 'craft_item' }],
      body: {},
      runnerId: null,
    };
    const action = { planId: 'p', stepId: 'a', command: 'craft', args: {} };
    // An action's command is NOT NULL: the last write fails, and the run and action before it go with it.
    const broken = { kind: 'action', action: { ...action, command: null as unknown as string } } as const;
    await expect(
      journal.recordBatch([{ kind: 'beginRun', run: begin }, { kind: 'action', action }, broken]),
    ).rejects.toThrow();
    expect(await journal.plan('p')).toBeUndefined();
    const [runId, event, actionId] = await journal.recordBatch([
      { kind: 'beginRun', run: begin },
      {
        kind: 'event',
        record: {
          event: { type: 'attempt.started', planId: 'p', stepId: 'a', verb: 'craft_item', attempt: 1, at: 0 },
          runnerId: null,
        },
      },
      { kind: 'action', action },
    ]);
    expect([typeof runId, event, typeof actionId]).toEqual(['number', undefined, 'number']);
    await journal.recordBatch([{ kind: 'settleAction', id: actionId as number, error: null }]);
    const [step] = (await journal.planProvenance('p'))!.steps;
    expect(step!.attempts.flatMap((a) => a.actions).map((a) => [a.id, a.settled_at !== null])).toEqual([
      [actionId, true],
    ]);
  });

  it("ends each run of a plan run twice in quick succession as its own events say, while the first run's opening commits", async () => {
    const { journal } = await fresh();
    const recorder = new JournalRecorder(journal, { runnerId: null });
    const planned = { planId: 'p', intentId: 'i', steps: [{ stepId: 'a', type: 'craft_item' }], body: { planId: 'p' } };
    const ended = (detail: string): ExecutorEvent => ({
      ...base,
      type: 'plan.ended',
      result: {
        planId: 'p',
        ok: false,
        code: 'aborted',
        detail,
        steps: [],
        escalations: 0,
        repairs: 0,
        defences: 0,
        retries: 0,
        durationMs: 1,
      },
    });
    void recorder.beginRun(planned);
    // The first run's opening is on its way (PostgreSQL: in flight) while it ends and the plan runs again.
    await Promise.resolve();
    recorder.record(ended('first'));
    void recorder.beginRun(planned);
    recorder.record(ended('second'));
    await recorder.flush();
    const { runs } = (await journal.planProvenance('p'))!;
    expect(runs.map((r) => [r.detail, r.ended_at !== null])).toEqual([
      ['first', true],
      ['second', true],
    ]);
  });

  it('records a run from its events: steps, transitions, attempts, actions, effects, node states, SLA and the run’s end', async () => {
    const { journal } = await fresh();
    const world = SimWorld.create({ clock: new ManualClock(), inventory: { stick: 4 } });
    const recorder = new JournalRecorder(journal, { runnerId: null, world });
    await recorder.beginRun({
      planId: 'p',
      intentId: 'i',
      steps: [
        { stepId: 'a', type: 'craft_item' },
        { stepId: 'b', type: 'navigate' },
      ],
      body: { planId: 'p' },
    });
    scriptedRun(recorder);
    await recorder.flush();
    const provenance = (await journal.planProvenance('p'))!;
    expect(provenance.plan.status).toBe('failed');
    expect(provenance.runs.map((r) => [r.ok, r.code])).toEqual([[0, 'stuck.path']]);
    const [a, b] = provenance.steps;
    expect([a!.step.status, a!.step.capability_version, a!.step.ttfa_ms, a!.step.outcome_code]).toEqual([
      'succeeded',
      '1.0.0',
      12,
      'ok',
    ]);
    expect(JSON.parse(a!.step.expectations!)).toEqual([{ kind: 'inventory', item: 'stick', atLeast: 4 }]);
    expect(a!.transitions.map((t) => t.to_status)).toEqual(['pending', 'in_progress', 'succeeded']);
    expect(
      a!.attempts.map((t) => [t.number, t.outcome, t.actions.map((x) => [x.command, x.error, x.settled_at !== null])]),
    ).toEqual([[1, 'ok', [['craft', null, true]]]]);
    expect(a!.effects.map((e) => JSON.parse(e.blocks) as unknown)).toEqual([[{ x: 1, y: 0, z: 0, name: 'air' }]]);
    expect(b!.step).toMatchObject({ status: 'failed', attempts: 2, outcome_code: 'stuck.path' });
    expect(b!.attempts.map((t) => [t.number, t.outcome])).toEqual([
      [1, 'stuck.path'],
      [2, 'stuck.path'],
    ]);
    expect(b!.attempts[0]!.actions.map((x) => x.error)).toEqual(['no path']);
    const events = (await journal.eventHistory('p', { after: 0, limit: 100 }))!;
    expect(events.rows.map((e) => e.type)).toEqual([
      'plan.accepted',
      'step.started',
      'step.expects',
      'attempt.started',
      'step.firstAction',
      'step.ended',
      'step.started',
      'attempt.started',
      'step.retry',
      'attempt.started',
      'step.ended',
      'plan.ended',
    ]);
    const nodes = (await journal.nodeStateHistory('p', { after: 0, limit: 10 }))!.rows;
    expect(nodes).toMatchObject([
      {
        stepId: 'a',
        tree: 'craft_item',
        changes: [['craft_item', 'running']],
        attemptId: a!.attempts[0]!.id,
        eventId: events.rows[4]!.id,
      },
    ]);
    expect((await journal.measuredSla()).map((m) => [m.capability, m.runs, m.successes, m.lastFailureCode])).toEqual([
      ['craft_item', 1, 1, null],
      ['navigate', 1, 0, 'stuck.path'],
    ]);
    expect(await journal.listRuns()).toMatchObject([
      { plan_id: 'p', steps_total: 2, steps_succeeded: 1, plan_status: 'failed' },
    ]);
  });

  it('moves a step with a transition, refuses an unknown step, and refuses a status the journal does not know', async () => {
    const { journal } = await fresh();
    await journal.beginRun({
      planId: 'p',
      intentId: 'i',
      steps: [{ stepId: 's', type: 'navigate' }],
      body: {},
      runnerId: null,
    });
    expect(await journal.transition('p', 's', 'in_progress', 'dispatched')).toBe(true);
    expect(await journal.transition('p', 'nope', 'in_progress', 'dispatched')).toBe(false);
    await expect(journal.transition('p', 's', 'done' as StepStatus, 'typo')).rejects.toThrow(/check/i);
    expect(await stepFields(journal, 'p', 'status')).toEqual([{ status: 'in_progress' }]);
    const [s] = (await journal.planProvenance('p'))!.steps;
    expect(s!.transitions.map((t) => [t.from_status, t.to_status, t.reason])).toEqual([
      [null, 'pending', 'planned'],
      ['pending', 'in_progress', 'dispatched'],
    ]);
  });

  it('claims an idempotency key once: the loser learns the holder; a completed key keeps who held it and its effects', async () => {
    const { journal, another } = await fresh();
    const others = await Promise.all([another(), another(), another()]);
    const claim = (stepId: string) => ({
      key: 'k',
      planId: 'p',
      stepId,
      verb: 'craft_item',
      args: { n: 1 },
      runnerId: 'r',
    });
    // Four processes claim at once: exactly one wins.
    const answers = await Promise.all([journal, ...others].map((j, i) => j.claimKey(claim(`s${i}`))));
    expect(answers.filter((a) => a.claimed)).toHaveLength(1);
    const winner = `s${answers.findIndex((a) => a.claimed)}`;
    expect(answers.find((a) => !a.claimed)).toEqual({
      claimed: false,
      holder: { planId: 'p', stepId: winner, verb: 'craft_item', args: { n: 1 }, state: 'in_flight' },
    });
    await journal.completeKey('k', [sticks]);
    await journal.releaseKey('k');
    expect(await journal.claimKey(claim('later'))).toEqual({
      claimed: false,
      holder: {
        planId: 'p',
        stepId: winner,
        verb: 'craft_item',
        args: { n: 1 },
        state: 'completed',
        expectations: [{ kind: 'inventory', item: 'stick', atLeast: 4 }],
      },
    });
    expect(await journal.completedKeys()).toEqual(['k']);
    // An in-flight key given back is free again.
    await journal.claimKey({ ...claim('x'), key: 'k2' });
    await journal.releaseKey('k2');
    expect(await journal.claimKey({ ...claim('y'), key: 'k2' })).toEqual({ claimed: true });
  });

  it('holds a plan for one process at a time, and takes it over from one that is gone, as an incident', async () => {
    const { journal, another } = await fresh();
    const clock = new ManualClock();
    const first = await PlanLease.acquire(journal, 'p', { clock, kind: 'run', isAlive: () => true });
    await expect(
      PlanLease.acquire(await another(), 'p', { clock, kind: 'resume', isAlive: () => true }),
    ).rejects.toThrow(LeaseHeldError);
    const second = await PlanLease.acquire(await another(), 'p', { clock, kind: 'resume', isAlive: () => false });
    expect((await journal.planLeaseHolder('p'))?.kind).toBe('resume');
    expect(await first.renew()).toBe(false);
    expect((await journal.listIncidents()).incidents.map((i) => i.failure_mode)).toEqual(['lease_takeover']);
    await second.release();
    expect(await journal.planLeaseHolder('p')).toBeUndefined();
  });

  it('opens, filters, resolves and clears incidents', async () => {
    const { journal } = await fresh();
    await journal.openIncident({ planId: 'p', stepId: 'walk_east', mode: 'orphaned_step', details: { pid: 1 } });
    const done = await journal.openIncident({
      planId: 'p',
      stepId: 'dig',
      mode: 'orphaned_step',
      details: null,
      at: 0,
    });
    await journal.resolveIncident(done, 'reset to pending');
    expect((await journal.listIncidents()).total).toBe(2);
    // A step prefix matches literally: `_` is not a wildcard.
    expect((await journal.listIncidents({ stepId: 'walk_' })).incidents.map((i) => i.step_id)).toEqual(['walk_east']);
    expect((await journal.listIncidents({ stepId: 'walkxeast' })).total).toBe(0);
    expect((await journal.listIncidents({ unresolved: true })).incidents.map((i) => i.step_id)).toEqual(['walk_east']);
    expect(await journal.incident(done)).toMatchObject({ resolution: 'reset to pending' });
    expect(await journal.clearResolvedIncidents(60_000)).toBe(1);
    expect((await journal.listIncidents()).total).toBe(1);
  });

  it('a health check finds a dead runner, recovers its orphan, and releases its in-flight claims; a dry run writes nothing', async () => {
    const { journal } = await fresh();
    await crashedMidStep(journal, { runner: 'gone', pid: 4242, key: 'k' });
    const read = await runHealthCheck(journal, { isAlive: () => false, dryRun: true });
    expect(read.findings.map((f) => [f.mode, f.incidentId])).toEqual([
      ['dead_runner', 0],
      ['orphaned_step', 0],
    ]);
    expect((await journal.listIncidents()).total).toBe(0);
    const report = await runHealthCheck(journal, { isAlive: () => false });
    expect(report.findings.map((f) => f.action)).toEqual([
      'marked dead; 1 in-progress step left as orphans; 1 in-flight idempotency claim released',
      'reset to pending (interruption 1 of 3)',
    ]);
    expect(await stepFields(journal, 'p', 'status', 'failure_count')).toEqual([
      { status: 'pending', failure_count: 1 },
    ]);
    expect(
      await journal.claimKey({ key: 'k', planId: 'q', stepId: 's', verb: 'navigate', args: {}, runnerId: 'r2' }),
    ).toEqual({ claimed: true });
    expect((await runHealthCheck(journal, { isAlive: () => false })).findings).toEqual([]);
  });

  it("runs a plan through a journaled executor: the journal reads back the executor's own account", async () => {
    const { journal } = await fresh();
    const world = SimWorld.create({ clock: systemClock, inventory: { oak_log: 1 } });
    const assembly = await assembleJournaled({
      registry: createDefaultRegistry(),
      world,
      clock: systemClock,
      journal,
      kind: 'test',
    });
    const plan = {
      planId: 'real',
      intentId: 'i',
      steps: [
        { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 }, idempotencyKey: 'real-planks' },
      ],
    };
    const result = await (await assembly.run(plan)).result;
    await assembly.close();
    expect(result.ok).toBe(true);
    const provenance = (await journal.planProvenance('real'))!;
    expect(provenance.plan.status).toBe('succeeded');
    expect(provenance.steps.map((s) => [s.step.step_id, s.step.status])).toEqual([['planks', 'succeeded']]);
    expect(provenance.steps[0]!.attempts.flatMap((a) => a.actions).map((a) => a.command)).toEqual(['craft']);
    expect(await journal.completedKeys()).toEqual(['real-planks']);
    expect(await journal.planLeaseHolder('real')).toBeUndefined();
    expect(await journal.listRuns()).toMatchObject([{ runner_status: 'stopped', ok: 1 }]);
  });
});
