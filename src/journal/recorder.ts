import type { Vec3Like, WorldPort } from '../contracts/world.js';
import type { Executor } from '../executor/executor.js';
import type { PlanStepInput } from '../contracts/plan-step.js';
import type { AcceptedStep, EventOf, ExecutorEvent } from '../executor/events.js';
import type { RuntimeHooks } from '../runtime/hooks.js';
import type { ActionSink } from './action-trace.js';
import type { Journal } from './journal.js';
import type { PlanRevisionRow } from './rows.js';
import { snapshotWorld } from './world-snapshot.js';

export interface RecorderOptions {
  /** The runner (process) these runs belong to; health checks judge orphans by it. */
  runnerId?: string | null;
  /** The world the executor acts on: a succeeded step's effects (the bot, the blocks it touched) are read from it. */
  world?: WorldPort;
}

export interface PlannedRun {
  planId: string;
  intentId: string;
  steps: readonly { stepId: string; type: string; args?: Record<string, unknown>; idempotencyKey?: string }[];
  body: unknown;
  world?: unknown;
  resumed?: boolean;
}

interface OpenStep {
  planId: string;
  stepId: string;
  attemptId: number;
  attemptNumber: number;
  touched: Vec3Like[];
}

/** A rejected plan's run keeps this many of its issues. */
const MAX_ISSUES_IN_DETAIL = 20;

/**
 * Writes every executor event to the journal as it is emitted. Events are
 * emitted synchronously and better-sqlite3 writes synchronously, so a step is on
 * disk as in_progress before its first actuator starts, and its outcome before
 * the next step is announced. A failed write throws into the executor: a runner
 * that cannot journal must not act.
 */
export class JournalRecorder implements ActionSink {
  private readonly runs = new Map<string, number>();
  /** Open steps, innermost last: a sub-goal runs inside its parent, and actions belong to the innermost. */
  private readonly open: OpenStep[] = [];

  constructor(
    private readonly journal: Journal,
    private readonly options: RecorderOptions = {},
  ) {}

  attach(executor: Pick<Executor, 'events'>): () => void {
    const listener = (event: ExecutorEvent) => this.record(event);
    executor.events.on('event', listener);
    return () => executor.events.off('event', listener);
  }

  /** Journals a plan and opens its run before the executor sees it. */
  beginRun(planned: PlannedRun): number {
    const j = this.journal;
    const now = j.now();
    return j.write(() => {
      const existing = j.sql('SELECT plan_id FROM plans WHERE plan_id = ?').get(planned.planId);
      if (existing && planned.resumed) {
        j.sql('UPDATE plans SET status = ?, updated_at = ? WHERE plan_id = ?').run('running', now, planned.planId);
      } else if (existing) {
        // A new run of a journaled plan starts over; the old run's history stays in transitions, attempts and events.
        j.sql('UPDATE plans SET intent_id = ?, body = ?, world = ?, status = ?, updated_at = ? WHERE plan_id = ?').run(
          planned.intentId,
          JSON.stringify(planned.body),
          planned.world ? JSON.stringify(planned.world) : null,
          'running',
          now,
          planned.planId,
        );
        const old = j
          .sql("SELECT step_id FROM steps WHERE plan_id = ? AND status != 'pending'")
          .all(planned.planId) as { step_id: string }[];
        for (const { step_id } of old)
          j.transition(planned.planId, step_id, 'pending', 'new run of the plan', null, now);
        // What an earlier run expected is no claim about this one: a resume checks only expectations journaled in its
        // own line of runs.
        j.sql('UPDATE steps SET expectations = NULL WHERE plan_id = ?').run(planned.planId);
      } else {
        j.sql(
          'INSERT INTO plans (plan_id, intent_id, body, world, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        ).run(
          planned.planId,
          planned.intentId,
          JSON.stringify(planned.body),
          planned.world ? JSON.stringify(planned.world) : null,
          'running',
          now,
          now,
        );
      }
      const runId = Number(
        j
          .sql('INSERT INTO runs (plan_id, runner_id, resumed, started_at) VALUES (?, ?, ?, ?)')
          .run(planned.planId, this.options.runnerId ?? null, planned.resumed ? 1 : 0, now).lastInsertRowid,
      );
      planned.steps.forEach((step, index) =>
        this.ensureStep(
          planned.planId,
          step.stepId,
          step.type,
          null,
          index,
          step.args ?? {},
          step.idempotencyKey ?? null,
          runId,
        ),
      );
      this.runs.set(planned.planId, runId);
      return runId;
    });
  }

  recordIntent(intent: { id: string; source?: string; goal?: string }): void {
    this.journal
      .sql('INSERT OR IGNORE INTO intents (id, source, goal, body, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(intent.id, intent.source ?? null, intent.goal ?? null, JSON.stringify(intent), this.journal.now());
  }

  record(event: ExecutorEvent): void {
    this.journal.write(() => {
      const runId = this.runFor(event);
      this.lastEventId = Number(
        this.journal
          .sql('INSERT INTO events (run_id, plan_id, type, at, body) VALUES (?, ?, ?, ?, ?)')
          .run(runId, event.planId, event.type, event.at, JSON.stringify(event)).lastInsertRowid,
      );
      this.apply(event, runId);
    });
  }

  /**
   * Runtime hooks that journal every node state change of the innermost open step's tree (one row per tree
   * step that changed anything), with wall time, so a run can be replayed node by node.
   */
  readonly hooks: RuntimeHooks = {
    nodeStates: (event) => {
      const step = this.open.at(-1);
      if (!step || event.changes.length === 0) return;
      const changes = JSON.stringify(event.changes.map((change) => [change.nodePath, change.to]));
      const at = this.options.world?.position();
      this.journal
        .sql(
          'INSERT INTO node_states (plan_id, step_id, attempt_id, tree, at, changes, event_id, x, y, z) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          step.planId,
          step.stepId,
          step.attemptId === 0 ? null : step.attemptId,
          event.tree,
          this.journal.now(),
          changes,
          this.lastEventId,
          at?.x ?? null,
          at?.y ?? null,
          at?.z ?? null,
        );
    },
  };
  /** The id of the last executor event journaled, so a replay shows the events up to each node change. */
  private lastEventId: number | null = null;

  actionStarted(command: string, args: unknown, touches?: Vec3Like): number | null {
    const step = this.open.at(-1);
    if (!step) return null;
    if (touches) step.touched.push({ x: touches.x, y: touches.y, z: touches.z });
    const at = this.journal.now();
    return this.journal.write(() => {
      if (step.attemptId !== 0)
        this.journal.sql('UPDATE attempts SET last_actuator_at = ? WHERE id = ?').run(at, step.attemptId);
      return Number(
        this.journal
          .sql(
            'INSERT INTO actions (attempt_id, plan_id, step_id, command, args, started_at) VALUES (?, ?, ?, ?, ?, ?)',
          )
          .run(
            step.attemptId === 0 ? null : step.attemptId,
            step.planId,
            step.stepId,
            command,
            JSON.stringify(args ?? null),
            at,
          ).lastInsertRowid,
      );
    });
  }

  actionSettled(handle: number | null, error?: string): void {
    if (handle === null) return;
    this.journal
      .sql('UPDATE actions SET settled_at = ?, error = ? WHERE id = ?')
      .run(this.journal.now(), error ?? null, handle);
  }

  private runFor(event: ExecutorEvent): number | null {
    let runId = this.runs.get(event.planId);
    if (runId === undefined && event.type === 'plan.accepted') {
      // A plan handed to the executor directly, or planned from an intent: journal what the event tells.
      runId = this.beginRun({ planId: event.planId, intentId: event.intentId, steps: [], body: null });
    }
    return runId ?? null;
  }

  private apply(event: ExecutorEvent, runId: number | null): void {
    const j = this.journal;
    switch (event.type) {
      case 'plan.accepted':
        return this.planAccepted(event, runId);
      case 'step.started':
        return this.stepStarted(event, runId);
      case 'step.refused':
      case 'step.deduplicated':
        // No step.started came before: step.ended moves the step from pending to failed or succeeded.
        return this.learnStep(event, event.idempotencyKey, runId);
      case 'step.expects':
        j.sql('UPDATE steps SET expectations = ? WHERE plan_id = ? AND step_id = ?').run(
          JSON.stringify(event.expectations),
          event.planId,
          event.stepId,
        );
        return;
      case 'attempt.started':
        this.openAttempt(event.planId, event.stepId, runId);
        return;
      case 'step.firstAction':
        j.sql('UPDATE steps SET ttfa_ms = ? WHERE plan_id = ? AND step_id = ?').run(
          event.ttfaMs,
          event.planId,
          event.stepId,
        );
        return;
      case 'step.retry':
      case 'step.repair':
        // The failed attempt ends with its code; the next one opens at its own attempt.started.
        this.closeAttempt(event.planId, event.stepId, event.code, event.detail);
        return;
      case 'step.preempted':
        this.closeAttempt(event.planId, event.stepId, 'preempted', `${event.by}: ${event.reason}`);
        return;
      case 'step.resumed':
        j.sql('UPDATE steps SET deadline_at = ? WHERE plan_id = ? AND step_id = ?').run(
          wallDeadline(j, event),
          event.planId,
          event.stepId,
        );
        return;
      case 'step.ended':
        return this.stepEnded(event, runId);
      case 'plan.replaced':
        // As a planner's replacement: a revision, adopted (and its steps journaled) when its first step starts.
        j.sql(
          'INSERT INTO plan_revisions (plan_id, rung, planner, failed_step_id, steps, created_at) VALUES (?, 0, ?, ?, ?, ?)',
        ).run(event.planId, 'operator', event.afterStepId ?? '', JSON.stringify(event.steps), j.now());
        return;
      case 'incident':
        j.openIncident({
          planId: event.planId,
          stepId: event.stepId ?? null,
          runnerId: this.options.runnerId ?? null,
          mode: event.kind,
          details: { detail: event.detail },
          at: j.now(),
        });
        return;
      case 'plan.rejected':
      case 'plan.ended': {
        const result =
          event.type === 'plan.ended'
            ? event.result
            : { ok: false, code: event.code, detail: issuesLine(event.issues) };
        if (runId !== null)
          j.sql('UPDATE runs SET ended_at = ?, ok = ?, code = ?, detail = ? WHERE id = ? AND ended_at IS NULL').run(
            j.now(),
            result.ok ? 1 : 0,
            result.code ?? null,
            result.detail ?? null,
            runId,
          );
        // plan.ended follows plan.rejected: the plan stays rejected, not merely failed.
        j.sql("UPDATE plans SET status = ?, updated_at = ? WHERE plan_id = ? AND status != 'rejected'").run(
          result.ok ? 'succeeded' : event.type === 'plan.rejected' ? 'rejected' : 'failed',
          j.now(),
          event.planId,
        );
        if (event.type === 'plan.ended') this.runs.delete(event.planId);
        return;
      }
      default:
        return;
    }
  }

  /** The plan as validated: every step with the version it resolved to and its arguments as parsed. */
  private planAccepted(event: EventOf<'plan.accepted'>, runId: number | null): void {
    const j = this.journal;
    event.resolved.forEach((step, index) => {
      this.ensureStep(event.planId, step.stepId, step.type, null, index, step.args, step.idempotencyKey ?? null, runId);
      j.sql(
        'UPDATE steps SET capability_version = ?, args = ?, idempotency_key = ? WHERE plan_id = ? AND step_id = ?',
      ).run(step.version, JSON.stringify(step.args), step.idempotencyKey ?? null, event.planId, step.stepId);
    });
    // A plan planned from an intent (or handed to the executor directly) has no body yet: its resolved steps are it, so
    // it can be resumed.
    const body = { planId: event.planId, intentId: event.intentId, steps: event.resolved.map(asPlanStep) };
    j.sql("UPDATE plans SET body = ? WHERE plan_id = ? AND (body IS NULL OR body = 'null')").run(
      JSON.stringify(body),
      event.planId,
    );
  }

  private stepStarted(event: EventOf<'step.started'>, runId: number | null): void {
    const j = this.journal;
    this.learnStep(event, event.idempotencyKey ?? null, runId);
    j.sql(
      'UPDATE steps SET verb = ?, capability_version = ?, args = ?, idempotency_key = ?, run_id = ?, deadline_at = ?, expectations = NULL, outcome_code = NULL, outcome_detail = NULL WHERE plan_id = ? AND step_id = ?',
    ).run(
      event.verb,
      event.version,
      JSON.stringify(event.args ?? {}),
      event.idempotencyKey ?? null,
      runId,
      wallDeadline(j, event),
      event.planId,
      event.stepId,
    );
    j.transition(event.planId, event.stepId, 'in_progress', 'dispatched', runId, j.now());
    // Its first attempt opens at attempt.started, after the guard (and any sub-goals) held.
    this.open.push({ planId: event.planId, stepId: event.stepId, attemptId: 0, attemptNumber: 0, touched: [] });
  }

  /**
   * A step starts, or the idempotency check ends it before it starts. A sub-goal, a fast-path step or a
   * planner's replacement step is known from no earlier event: the journal learns it here, arguments and all.
   */
  private learnStep(
    event: { planId: string; stepId: string; verb: string; args: unknown; parentStepId?: string },
    key: string | null,
    runId: number | null,
  ): void {
    const j = this.journal;
    if (event.parentStepId === undefined) this.adoptRevision(event.planId, event.stepId, runId);
    const known = j.sql('SELECT 1 FROM steps WHERE plan_id = ? AND step_id = ?').get(event.planId, event.stepId);
    if (known) return;
    const seq = (
      j.sql('SELECT COALESCE(MAX(seq), -1) + 1 AS next FROM steps WHERE plan_id = ?').get(event.planId) as {
        next: number;
      }
    ).next;
    this.ensureStep(event.planId, event.stepId, event.verb, event.parentStepId ?? null, seq, event.args, key, runId);
  }

  /**
   * A top-level step from the planner's latest replacement starts: the plan's
   * line now continues with that replacement. Its steps not yet started are
   * journaled as pending, so a resume (and `verbtree show`) knows them.
   */
  private adoptRevision(planId: string, stepId: string, runId: number | null): void {
    const j = this.journal;
    // Only a reply sent during this run: an earlier run's refused reply must not be adopted by a step that happens to
    // share its id.
    const latest = j
      .sql(
        'SELECT id, steps, adopted_at FROM plan_revisions WHERE plan_id = ? AND created_at >= COALESCE((SELECT started_at FROM runs WHERE id = ?), 0) ORDER BY id DESC LIMIT 1',
      )
      .get(planId, runId) as Pick<PlanRevisionRow, 'id' | 'steps' | 'adopted_at'> | undefined;
    if (!latest || latest.adopted_at !== null) return;
    const steps = JSON.parse(latest.steps) as {
      stepId: string;
      type: string;
      args?: Record<string, unknown>;
      idempotencyKey?: string;
    }[];
    if (!steps.some((s) => s.stepId === stepId)) return;
    j.sql('UPDATE plan_revisions SET adopted_at = ?, run_id = ? WHERE id = ?').run(j.now(), runId, latest.id);
    let seq = (
      j.sql('SELECT COALESCE(MAX(seq), -1) + 1 AS next FROM steps WHERE plan_id = ?').get(planId) as { next: number }
    ).next;
    for (const step of steps)
      this.ensureStep(planId, step.stepId, step.type, null, seq++, step.args ?? {}, step.idempotencyKey ?? null, runId);
  }

  private stepEnded(event: EventOf<'step.ended'>, runId: number | null): void {
    const j = this.journal;
    const { outcome } = event;
    const code = outcome.ok ? (outcome.deduplicated ? 'deduplicated' : 'ok') : outcome.code;
    const detail = outcome.ok ? null : outcome.detail;
    this.closeAttempt(event.planId, event.stepId, code, detail);
    const index = this.open.findLastIndex((s) => s.stepId === event.stepId && s.planId === event.planId);
    const step = index >= 0 ? this.open.splice(index, 1)[0] : undefined;
    j.sql(
      'UPDATE steps SET attempts = attempts + ?, duration_ms = ?, ttfa_ms = ?, outcome_code = ?, outcome_detail = ? WHERE plan_id = ? AND step_id = ?',
    ).run(event.attempts, event.durationMs, event.ttfaMs, code, detail, event.planId, event.stepId);
    j.transition(
      event.planId,
      event.stepId,
      outcome.ok ? 'succeeded' : 'failed',
      outcome.ok
        ? outcome.deduplicated
          ? 'idempotency key already completed'
          : 'verified'
        : `${outcome.code}: ${outcome.detail}`,
      runId,
      j.now(),
    );
    if (outcome.ok && !outcome.deduplicated && this.options.world) {
      const world = this.options.world;
      const blocks = (step?.touched ?? []).map((p) => ({
        x: p.x,
        y: p.y,
        z: p.z,
        name: world.blockAt(p)?.name ?? 'air',
      }));
      j.sql('INSERT INTO effects (plan_id, step_id, run_id, at, post, blocks) VALUES (?, ?, ?, ?, ?, ?)').run(
        event.planId,
        event.stepId,
        runId,
        j.now(),
        JSON.stringify(snapshotWorld(world)),
        JSON.stringify(blocks),
      );
    }
    if (!(outcome.ok && outcome.deduplicated)) this.updateSla(event);
  }

  private updateSla(event: EventOf<'step.ended'>): void {
    const j = this.journal;
    const failed = !event.outcome.ok;
    j.sql(
      `INSERT INTO capability_sla (capability, runs, successes, ttfa_sum, ttfa_count, duration_sum, last_failure_code, last_failure_at, updated_at)
       VALUES (@capability, 1, @success, @ttfa, @ttfaCount, @duration, @code, @failedAt, @now)
       ON CONFLICT(capability) DO UPDATE SET runs = runs + 1, successes = successes + @success, ttfa_sum = ttfa_sum + @ttfa,
         ttfa_count = ttfa_count + @ttfaCount, duration_sum = duration_sum + @duration,
         last_failure_code = COALESCE(@code, last_failure_code), last_failure_at = COALESCE(@failedAt, last_failure_at), updated_at = @now`,
    ).run({
      capability: event.verb,
      success: failed ? 0 : 1,
      ttfa: event.ttfaMs ?? 0,
      ttfaCount: event.ttfaMs === null ? 0 : 1,
      duration: event.durationMs,
      code: event.outcome.ok ? null : event.outcome.code,
      failedAt: failed ? j.now() : null,
      now: j.now(),
    });
  }

  private ensureStep(
    planId: string,
    stepId: string,
    verb: string,
    parent: string | null,
    seq: number,
    args: unknown,
    key: string | null,
    runId: number | null,
  ): void {
    const j = this.journal;
    const inserted = j
      .sql(
        'INSERT OR IGNORE INTO steps (plan_id, step_id, parent_step_id, seq, verb, args, idempotency_key, status, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(planId, stepId, parent, seq, verb, args === null ? null : JSON.stringify(args), key, 'pending', j.now());
    if (inserted.changes > 0) {
      j.sql(
        'INSERT INTO step_transitions (plan_id, step_id, run_id, from_status, to_status, at, reason) VALUES (?, ?, ?, NULL, ?, ?, ?)',
      ).run(planId, stepId, runId, 'pending', j.now(), parent ? `sub-goal of ${parent}` : 'planned');
    }
  }

  private openAttempt(planId: string, stepId: string, runId: number | null): void {
    const step = this.open.findLast((s) => s.stepId === stepId && s.planId === planId);
    if (!step) return;
    const j = this.journal;
    const number =
      (
        j.sql('SELECT COUNT(*) AS n FROM attempts WHERE plan_id = ? AND step_id = ?').get(planId, stepId) as {
          n: number;
        }
      ).n + 1;
    // Every path that opens an attempt closes the last one first; this only guards the journal's invariant of one open
    // attempt per step.
    this.closeAttempt(planId, stepId, 'superseded', null);
    step.attemptId = Number(
      j
        .sql('INSERT INTO attempts (plan_id, step_id, run_id, number, started_at) VALUES (?, ?, ?, ?, ?)')
        .run(planId, stepId, runId, number, j.now()).lastInsertRowid,
    );
    step.attemptNumber = number;
  }

  private closeAttempt(planId: string, stepId: string, outcome: string, detail: string | null): void {
    const step = this.open.findLast((s) => s.stepId === stepId && s.planId === planId);
    if (!step || step.attemptId === 0) return;
    this.journal
      .sql('UPDATE attempts SET ended_at = ?, outcome = ?, detail = ? WHERE id = ? AND ended_at IS NULL')
      .run(this.journal.now(), outcome, detail, step.attemptId);
  }
}

/**
 * Event times are the executor clock's (process-relative for SystemClock); the journal keeps wall time, comparable
 * across processes.
 */
function wallDeadline(journal: Journal, event: { at: number; deadlineAt: number }): number {
  return journal.now() + (event.deadlineAt - event.at);
}

/** A resolved step written back as a plan step, pinned to the version it resolved to. */
function asPlanStep(step: AcceptedStep): PlanStepInput {
  return {
    stepId: step.stepId,
    type: step.type,
    version: step.version,
    args: step.args as Record<string, unknown>,
    ...(step.idempotencyKey ? { idempotencyKey: step.idempotencyKey } : {}),
  };
}

/** The first issues of a rejected plan in one line, and how many more there were: a huge plan may have a million. */
function issuesLine(issues: readonly { message: string }[]): string {
  const shown = issues.slice(0, MAX_ISSUES_IN_DETAIL).map((i) => i.message.slice(0, 500));
  return `${shown.join('; ')}${issues.length > shown.length ? `; … and ${issues.length - shown.length} more issues` : ''}`;
}
