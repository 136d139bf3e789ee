import { describe, expect, it } from 'vitest';
import { longestWallWaitMs } from '../../src/clock/index.js';
import { runHealthCheck } from '../../src/journal/health-check.js';
import type { Journal } from '../../src/journal/journal.js';
import type { StepRow } from '../../src/journal/rows.js';
import { openTemp, stepsOf } from './helpers.js';
import { crashedMidStep } from './seed.js';

const HOUR = 3_600_000;
/**
 * A step with a 5 s deadline hangs, for the sweep, past the longest a late loop can stretch it ((5 s + 10 s burst) /
 * (1 - 0.95) = 300 s from its start) and the 10 s grace: 305 s past its deadline.
 */
const HANGS_PAST_DEADLINE_MS = longestWallWaitMs(5_000) - 5_000 + 10_000;

async function step(journal: Journal): Promise<StepRow> {
  return (await stepsOf(journal, 'p'))[0]!;
}

async function incidents(journal: Journal) {
  return (await journal.listIncidents({ limit: 1000 })).incidents.reverse();
}

/** A journal whose clock the test sets. */
function clocked(start: number) {
  const time = { now: start };
  const { journal } = openTemp(() => time.now);
  return { journal, time };
}

describe('health check', () => {
  it('is healthy on an empty journal', async () => {
    const { journal } = openTemp();
    const report = await runHealthCheck(journal);
    expect(report.status).toBe('healthy');
    expect(report.findings).toEqual([]);
    expect(report.checks.map((c) => c.type)).toEqual([
      'orphaned_step',
      'hanging_attempt',
      'zombie_runner',
      'dead_runner',
      'expired_lease',
      'dead_worker',
    ]);
  });

  it('finds a dead runner by its pid, records the orphaned step and resets it to pending', async () => {
    const { journal, time } = clocked(8_950);
    await crashedMidStep(journal, { runner: 'r1', pid: 4242 });
    time.now = 9_000;
    await journal.beatRunner('r1');
    time.now = 12_000;
    const report = await runHealthCheck(journal, { isAlive: () => false });
    expect(report.findings.map((f) => f.mode)).toEqual(['dead_runner', 'orphaned_step']);
    expect(report.findings[0]!.summary).toBe('runner pid 4242 (verbtree run) is gone; last beat 3s ago');
    expect(report.findings[1]!.action).toBe('reset to pending (interruption 1 of 3)');
    expect(await step(journal)).toMatchObject({ status: 'pending', failure_count: 1 });
    const provenance = (await journal.planProvenance('p'))!;
    expect(provenance.steps[0]!.attempts.map((a) => a.outcome)).toEqual(['orphaned']);
    expect(provenance.plan.status).toBe('interrupted');
    expect(await journal.listRuns()).toMatchObject([{ code: 'interrupted', runner_status: 'dead' }]);
    const orphan = (await incidents(journal)).find((i) => i.failure_mode === 'orphaned_step')!;
    expect(orphan).toMatchObject({
      plan_id: 'p',
      step_id: 's1',
      runner_id: 'r1',
      resolution: 'reset to pending (interruption 1 of 3)',
    });
    expect(JSON.parse(orphan.details!)).toMatchObject({ pid: 4242, attempt: 1, lastActuatorAt: 8_950 });
    // A second check finds nothing new: the step is no longer in progress.
    expect((await runHealthCheck(journal, { isAlive: () => false })).findings).toEqual([]);
  });

  it('skips a step interrupted the maximum number of times', async () => {
    const { journal, time } = clocked(4_000);
    for (const [n, runner] of ['r1', 'r2', 'r3'].entries()) {
      await crashedMidStep(journal, { runner, pid: 1, resumed: n > 0 });
      time.now += 1_000;
      const report = await runHealthCheck(journal, { isAlive: () => false });
      expect(report.findings[1]!.action).toBe(
        n < 2 ? `reset to pending (interruption ${n + 1} of 3)` : 'skipped after 3 interrupted attempts (max 3)',
      );
    }
    expect((await step(journal)).status).toBe('skipped');
  });

  it("marks a step succeeded when its idempotency key completed before the crash, and releases a dead runner's in-flight claims", async () => {
    const { journal } = clocked(4_000);
    await crashedMidStep(journal, { runner: 'r1', pid: 1, key: 'k1' });
    await journal.completeKey('k1', []);
    await crashedMidStep(journal, { runner: 'r2', pid: 2, planId: 'q', key: 'k2' });
    const report = await runHealthCheck(journal, { isAlive: () => false });
    expect((await step(journal)).status).toBe('succeeded');
    expect(report.findings.find((f) => f.runnerId === 'r2' && f.mode === 'dead_runner')!.action).toBe(
      'marked dead; 1 in-progress step left as orphans; 1 in-flight idempotency claim released',
    );
    // k2 was in flight for a process that is gone: another claimant may take it now; k1 stays completed.
    expect(
      await journal.claimKey({ key: 'k2', planId: 'z', stepId: 'z', verb: 'navigate', args: {}, runnerId: 'r3' }),
    ).toEqual({
      claimed: true,
    });
    expect(await journal.completedKeys()).toEqual(['k1']);
  });

  it('calls a live but silent runner a zombie and leaves its steps alone', async () => {
    const { journal, time } = clocked(100_000 - 31_000);
    await crashedMidStep(journal, { runner: 'r1', pid: 1 });
    time.now = 100_000;
    const report = await runHealthCheck(journal, { isAlive: () => true });
    expect(report.status).toBe('unhealthy');
    expect(report.findings.map((f) => f.mode)).toEqual(['zombie_runner']);
    expect((await step(journal)).status).toBe('in_progress');
    expect((await incidents(journal))[0]!.resolved_at).toBeNull();
    // It beats again: the incident resolves and the runner is running once more.
    await journal.beatRunner('r1');
    time.now += 1_000;
    await runHealthCheck(journal, { isAlive: () => true });
    expect((await incidents(journal))[0]!.resolution).toBe('the runner beats again');
    expect(await journal.listRuns()).toMatchObject([{ runner_status: 'running' }]);
  });

  it('judges a fleet worker by its heartbeat and its leases, never by a pid: silent and holding a lease it is a zombie, silent and holding none it is gone', async () => {
    const { journal, time } = clocked(100_000);
    await journal.registerRunner(
      { id: 'rack2', pid: 1, host: 'another-machine', kind: 'worker' },
      { takeOverSilentAfterMs: 1 },
    );
    await journal.addBot({ name: 'ann' });
    await journal.claimBot('ann', 'rack2', 60_000);
    time.now += 31_000;
    // isAlive says the pid is gone: a pid of another machine proves nothing, the unexpired lease does.
    const holding = await runHealthCheck(journal, { isAlive: () => false });
    expect(holding.findings.map((f) => [f.mode, f.summary])).toEqual([
      ['zombie_runner', 'worker rack2 (pid 1 on another-machine) is silent for 31s but still holds a bot lease'],
    ]);
    time.now += 30_000;
    const lapsed = await runHealthCheck(journal, { isAlive: () => true });
    expect(lapsed.findings.map((f) => [f.mode, f.summary])).toEqual([
      ['dead_runner', 'worker rack2 (pid 1 on another-machine) is silent for 61s and holds no bot lease'],
      // The bot's lapsed lease is a finding of its own; the worker's death is said once, by its runner's check.
      ['expired_lease', "bot ann's lease (worker rack2, epoch 1) lapsed 1s ago"],
    ]);
  });

  it('reports an attempt of a live runner open past the longest its loop can stretch its deadline as hanging, once', async () => {
    const { journal, time } = clocked(0);
    await crashedMidStep(journal, { runner: 'r1', pid: 1, deadlineInMs: 5_000 });
    time.now = 5_000 + HANGS_PAST_DEADLINE_MS + 1;
    await journal.beatRunner('r1');
    const first = await runHealthCheck(journal, { isAlive: () => true });
    expect(first.findings.map((f) => f.mode)).toEqual(['hanging_attempt']);
    expect(first.findings[0]!.summary).toContain('305s past its deadline');
    expect((await runHealthCheck(journal, { isAlive: () => true })).findings).toEqual([]);
  });

  it('takes no step of a live runner for a hang while a late loop may still be counting its deadline', async () => {
    const { journal, time } = clocked(0);
    await crashedMidStep(journal, { runner: 'r1', pid: 1, deadlineInMs: 5_000 });
    // Past the deadline and the grace in wall time, but the runner's step clock counts only the time it had.
    time.now = 5_000 + 10_000 + 1;
    await journal.beatRunner('r1');
    const loaded = await runHealthCheck(journal, { isAlive: () => true });
    expect(loaded.findings).toEqual([]);
    expect(loaded.status).toBe('healthy');
    time.now = 5_000 + HANGS_PAST_DEADLINE_MS;
    await journal.beatRunner('r1');
    expect((await runHealthCheck(journal, { isAlive: () => true })).findings).toEqual([]);
  });

  it('stops automatic recovery past the hourly incident limit and says so', async () => {
    const now = 10 * HOUR;
    const { journal } = clocked(now - 5_000);
    for (let i = 0; i < 3; i++) await journal.openIncident({ mode: 'orphaned_step', details: null, at: now - 1_000 });
    await crashedMidStep(journal, { runner: 'r1', pid: 1 });
    const report = await runHealthCheck(journal, { isAlive: () => false, config: { maxIncidentsPerHour: 3 } });
    expect(report.status).toBe('unhealthy');
    expect(report.recoveryPaused).toMatch(/^automatic recovery paused: 5 incidents in the last hour \(max 3\)/);
    expect((await step(journal)).status).toBe('in_progress');
    const orphan = (await incidents(journal)).find((i) => i.step_id === 's1')!;
    expect(orphan.resolved_at).toBeNull();

    // Once the rate allows again, the same incident is recovered and resolved, not recorded twice.
    const later = await runHealthCheck(journal, { isAlive: () => false, config: { maxIncidentsPerHour: 10 } });
    expect(later.recoveryPaused).toBeNull();
    expect(later.findings).toMatchObject([
      { mode: 'orphaned_step', incidentId: orphan.id, action: 'reset to pending (interruption 1 of 3)' },
    ]);
    expect((await step(journal)).status).toBe('pending');
    expect((await incidents(journal)).filter((i) => i.step_id === 's1')).toHaveLength(1);
  });

  it('resolves a hanging-attempt incident when the attempt finally ends', async () => {
    const { journal, time } = clocked(0);
    await crashedMidStep(journal, { runner: 'r1', pid: 1, deadlineInMs: 5_000 });
    time.now = 5_000 + HANGS_PAST_DEADLINE_MS + 1;
    await journal.beatRunner('r1');
    expect((await runHealthCheck(journal, { isAlive: () => true })).status).toBe('unhealthy');
    expect((await runHealthCheck(journal, { isAlive: () => true })).status).toBe('unhealthy');
    await journal.recordEvent({
      event: {
        type: 'step.ended',
        at: 0,
        planId: 'p',
        stepId: 's1',
        verb: 'navigate',
        outcome: { ok: false, code: 'deadline_exceeded', detail: 'passed its deadline' },
        durationMs: 20_500,
        attempts: 1,
        ttfaMs: null,
      },
      runnerId: 'r1',
    });
    const report = await runHealthCheck(journal, { isAlive: () => true });
    expect(report.status).toBe('healthy');
    expect((await incidents(journal))[0]!.resolution).toBe('the attempt ended (deadline_exceeded)');
  });
});
