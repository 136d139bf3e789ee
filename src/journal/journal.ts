import type { Expectation } from '../contracts/expectation.js';
import type { ExecutorEvent } from '../executor/events.js';
import type { HealthConfig } from './health-config.js';
import type { HealthSweep } from './health-types.js';
import type { Interruption } from './sql/fleet.js';
import type { PromotionRow } from './sql/version-runs.js';
import type { VersionRun } from '../registry/canary-sla.js';
import type { PlanControl, PlanControlAction, PlanControlAnswer } from './sql/plan-control.js';
import type { RecordedSuccess, Retraction } from './sql/retract.js';
import type { ClaimAnswer, IdempotencyClaim } from '../executor/idempotency.js';
import type {
  BotReport,
  BotView,
  EffectRow,
  EnqueueAnswer,
  Fence,
  IncidentRow,
  PlanLeaseRow,
  PlanRow,
  QueuedPlan,
  StepStatus,
} from './rows.js';
import type {
  EventFeedPage,
  IncidentFilter,
  MeasuredSla,
  NodeStatesRow,
  PlanProvenance,
  ResumeRecord,
  RunSummary,
} from './views.js';

/** Where commands keep the journal unless `--journal <path or postgres:// URL>` says otherwise. */
export const DEFAULT_JOURNAL_PATH = '.verbtree/journal.db';

export interface PlannedStep {
  stepId: string;
  type: string;
  args?: Record<string, unknown>;
  idempotencyKey?: string;
}

/** A plan journaled as it starts a run. */
export interface BeginRun {
  planId: string;
  intentId: string;
  steps: readonly PlannedStep[];
  body: unknown;
  world?: unknown;
  resumed?: boolean;
  /** The process running it; health checks judge its steps by it. */
  runnerId: string | null;
}

/** An executor event with what the journal cannot read from it: the effects of a succeeded step. */
export interface EventRecord {
  event: ExecutorEvent;
  runnerId: string | null;
  /** A succeeded step's effects, read from the world when it ended: the bot, and the blocks it touched. */
  effects?: { post: unknown; blocks: readonly { x: number; y: number; z: number; name: string }[] };
  /** The run it belongs to, when the writer opened it (otherwise the plan's latest run, looked up). */
  runId?: number;
  /**
   * False when the writer knows no planner's revision of the plan was journaled during its run (it journals them
   * all): a starting step then has none to adopt, and the journal does not look for one.
   */
  revised?: boolean;
}

/** An actuator command of the innermost open step. */
export interface ActionInput {
  planId: string;
  stepId: string;
  command: string;
  args: unknown;
}

/** The node state changes of one tree step of a step's tree. */
export interface NodeStatesInput {
  planId: string;
  stepId: string;
  tree: string;
  changes: readonly [string, string][];
  position: { x: number; y: number; z: number } | null;
}

/** Replacement steps a planner sent on escalation. */
export interface RevisionInput {
  planId: string;
  rung: number;
  planner: string;
  failedStepId: string;
  steps: unknown;
}

/**
 * One of a run's writes, as `recordBatch` takes them. Each answers what its own method does: `beginRun` the run's id,
 * `action` the action's id, the others nothing.
 */
export type JournalWrite =
  | { kind: 'intent'; intent: { id: string; source?: string; goal?: string } }
  | { kind: 'beginRun'; run: BeginRun }
  | { kind: 'event'; record: EventRecord }
  | { kind: 'action'; action: ActionInput }
  | { kind: 'settleAction'; id: number; error: string | null }
  | { kind: 'nodeStates'; row: NodeStatesInput }
  | { kind: 'revision'; revision: RevisionInput };

export interface IncidentInput {
  planId?: string | null;
  stepId?: string | null;
  runnerId?: string | null;
  attemptId?: number | null;
  mode: string;
  details: unknown;
  /** When it was detected; the journal's clock now when left out. */
  at?: number;
}

export interface PlanLeaseRequest {
  planId: string;
  token: string;
  pid: number;
  host: string;
  kind: string;
  staleAfterMs: number;
  isAlive: (pid: number) => boolean;
}

/** Every read and write of verbtree's durable record, at the level of the domain. SQL stays behind it. */
export interface Journal {
  readonly backend: 'sqlite' | 'postgres';
  /** Where it is: the SQLite file, or the PostgreSQL URL with its password masked. */
  readonly location: string;
  /**
   * True when every write is durable by the time its method returns, not only when its promise resolves (SQLite):
   * a caller keeps writes in order by calling in order. Otherwise a caller that needs order awaits each write.
   */
  readonly writesOnCall: boolean;
  /**
   * Writes refused because their fence no longer held (another holder claimed the bot, or the lease expired), or
   * because this process revoked it.
   */
  readonly fencedWritesRefused: number;
  /**
   * Gives a fence up in this process: every later write under it is refused here, before it reaches the database,
   * except `interruptPlan` (the database still refuses that one once the lease moved on). A worker that fenced itself
   * never writes as that holder again, even while its lease has not yet lapsed.
   */
  revokeFence(fence: Fence): void;
  schemaVersion(): Promise<number>;
  close(): Promise<void>;

  /**
   * With `takeOverSilentAfterMs` (a fleet worker under its node id): an id already registered is taken over when its
   * runner stopped, died or has been silent that long, and refused with a RunnerInUseError while it still beats.
   */
  registerRunner(
    runner: { id: string; pid: number; host: string; kind: string },
    options?: { takeOverSilentAfterMs?: number },
  ): Promise<void>;
  beatRunner(id: string): Promise<void>;
  stopRunner(id: string): Promise<void>;

  recordIntent(intent: { id: string; source?: string; goal?: string }, fence?: Fence): Promise<void>;
  /** Journals the plan (or starts it over) and opens its run; the run's id. */
  beginRun(run: BeginRun, fence?: Fence): Promise<number>;
  recordEvent(record: EventRecord, fence?: Fence): Promise<void>;
  /** An actuator command of the innermost open step; the action's id, for `settleAction`. */
  recordAction(action: ActionInput, fence?: Fence): Promise<number>;
  settleAction(id: number, error: string | null, fence?: Fence): Promise<void>;
  recordNodeStates(row: NodeStatesInput, fence?: Fence): Promise<void>;
  /** Replacement steps a planner sent on escalation, before the executor judges them. */
  recordRevision(revision: RevisionInput, fence?: Fence): Promise<void>;
  /**
   * Several of a run's writes, in order, in one transaction (one fence check): all are durable, or none and the
   * promise rejects. Each write's answer, in order.
   */
  recordBatch(writes: readonly JournalWrite[], fence?: Fence): Promise<unknown[]>;
  setPlanStatus(planId: string, status: string, fence?: Fence): Promise<void>;
  /** Moves a step to `to` with a transition row; false when there is no such step. */
  transition(planId: string, stepId: string, to: StepStatus, reason: string, fence?: Fence): Promise<boolean>;

  claimKey(claim: IdempotencyClaim & { runnerId: string | null }, fence?: Fence): Promise<ClaimAnswer>;
  completeKey(key: string, expectations: readonly Expectation[], fence?: Fence): Promise<void>;
  releaseKey(key: string, fence?: Fence): Promise<void>;
  completedKeys(): Promise<string[]>;

  /** Takes the plan's lease, over a holder that stopped (journaled as an incident); throws LeaseHeldError otherwise. */
  acquirePlanLease(request: PlanLeaseRequest): Promise<void>;
  /** Beats the lease's heartbeat; false when it was taken over or released. */
  renewPlanLease(planId: string, token: string): Promise<boolean>;
  releasePlanLease(planId: string, token: string): Promise<void>;
  planLeaseHolder(planId: string): Promise<PlanLeaseRow | undefined>;

  openIncident(incident: IncidentInput): Promise<number>;
  resolveIncident(id: number, resolution: string): Promise<void>;
  incident(id: number): Promise<IncidentRow | undefined>;
  listIncidents(filter?: IncidentFilter): Promise<{ total: number; incidents: IncidentRow[] }>;
  /** Deletes resolved incidents detected more than `olderThanMs` ago; the number removed. */
  clearResolvedIncidents(olderThanMs: number): Promise<number>;

  plan(planId: string): Promise<PlanRow | undefined>;
  listRuns(limit?: number): Promise<RunSummary[]>;
  planProvenance(
    planId: string,
    page?: { offset: number; limit: number },
  ): Promise<(PlanProvenance & { stepsTotal: number }) | null>;
  nodeStateHistory(
    planId: string,
    page: { after: number; limit: number },
  ): Promise<{ rows: NodeStatesRow[]; more: boolean } | null>;
  eventHistory(
    planId: string,
    page: { after: number; limit: number },
  ): Promise<{ rows: { id: number; type: string; at: number; event: unknown }[]; more: boolean } | null>;
  /**
   * Every plan's events in the order they committed, after `cursor` (null: from the start). A page never passes an
   * event a still-open transaction may yet commit, so a reader following the cursor misses none.
   */
  eventFeed(cursor: string | null, limit: number): Promise<EventFeedPage>;
  /** The feed's cursor past every event committed now: a reader that wants only what comes next starts here. */
  eventFeedEnd(): Promise<string | null>;
  measuredSla(): Promise<MeasuredSla[]>;
  /** Keeps one run of a version (a real step, or a canary's shadow run), for its SLA by world kind. */
  recordVersionRun(run: VersionRun): Promise<void>;
  /** The runs kept of `verb`'s versions (of every verb without one), oldest first. */
  versionRuns(verb?: string): Promise<VersionRun[]>;
  /** Keeps that a canary was promoted: it acts from then on, for every process that reads the journal. */
  recordPromotion(verb: string, version: string): Promise<void>;
  promotions(): Promise<PromotionRow[]>;

  resumeRecord(planId: string): Promise<ResumeRecord | null>;
  /** The effects of the current line of runs' verified steps, in order: what rebuilds a SimWorld. */
  lineEffects(planId: string): Promise<EffectRow[]>;
  /** See `distrustUnsavedSteps` in resume.ts; the steps set back to pending. */
  distrustUnsavedSteps(planId: string, savedAt: number): Promise<string[]>;
  /**
   * The bot's plans' top-level successes after `since` (the journal's clock), oldest first; with `running`, also every
   * success of its plans still under way. What a server's restart may have undone (see rollback.ts).
   */
  successesSince(bot: string, since: number, running: boolean, runnerId?: string): Promise<RecordedSuccess[]>;
  /**
   * Steps whose effect a server's rollback undid: each `retracted` with its evidence and its idempotency key released;
   * a plan already ended gets a `steps_retracted` incident naming them. `restart` says what showed the restart.
   */
  retractSteps(retractions: readonly Retraction[], restart: string, fence?: Fence): Promise<void>;

  /**
   * One pass of detection and recovery (see health-check.ts), in one transaction; rolled back when `dryRun`. On
   * PostgreSQL one sweeper runs at a time: a second waits for the first to commit, then sees what it did.
   */
  healthSweep(options: {
    config: HealthConfig;
    selfRunnerId?: string;
    isAlive: (pid: number) => boolean;
    dryRun: boolean;
  }): Promise<HealthSweep>;

  /** Adds a bot to the fleet (again: nothing changes). */
  addBot(bot: { name: string; settings?: unknown }): Promise<void>;
  listBots(): Promise<BotView[]>;
  /**
   * Takes a free or expired bot for `holder` until `ttlMs` from the database's now; the new epoch, or null when held.
   */
  claimBot(bot: string, holder: string, ttlMs: number): Promise<number | null>;
  /** Extends every unexpired lease `holder` has, in one statement; the ones still held. */
  renewLeases(holder: string, ttlMs: number): Promise<Fence[]>;
  releaseBot(fence: Fence & { holder: string }): Promise<boolean>;
  /**
   * Records what a worker says of the bots it holds (agent state, position, health), in one statement per 500 bots;
   * a report under an older epoch than the one recorded changes nothing. `listBots` shows a bot's report only while
   * its epoch is the bot's current lease's. The number of bots whose report was recorded.
   */
  reportBots(reports: readonly BotReport[]): Promise<number>;
  /** Queues a plan for a bot; idempotent on planId (a second enqueue changes nothing and says what is there). */
  enqueuePlan(plan: { planId: string; intentId: string; bot: string; body: unknown }): Promise<EnqueueAnswer>;
  /** The held bot's unfinished plan to resume, else its oldest queued plan (now running); null when none. */
  claimNextPlan(fence: Fence): Promise<QueuedPlan | null>;
  /**
   * An operator's pause, resume or cancel of a fleet plan, written on its row for the bot's holder (a queued plan is
   * cancelled at once); see sql/plan-control.ts.
   */
  requestPlanControl(planId: string, action: PlanControlAction, reason: string): Promise<PlanControlAnswer>;
  /** What the fleet plan's holder is asked to do with its run now; null when there is no such plan. */
  planControl(planId: string): Promise<PlanControl | null>;
  /**
   * The bots whose lease `holder` has and that have a plan queued: one read for all of a worker's bots, which it
   * asks often so that a plan starts soon after its enqueue, instead of every bot asking its own queue.
   */
  queuedBots(holder: string): Promise<string[]>;
  /**
   * Ends what the plan had under way without ending the plan (see sql/fleet.ts): its steps in progress back to pending
   * (succeeded when their idempotency key completed), its open runs ended with the code, the plan interrupted, so the
   * bot's next holder resumes it through the live-world check. The steps it moved. Permitted under a fence this
   * process revoked: it is a fenced holder's last write.
   */
  interruptPlan(planId: string, why: Interruption, fence?: Fence): Promise<string[]>;
}

export class JournalOpenError extends Error {
  override name = 'JournalOpenError';
}

/** A fenced write was refused: the bot's lease no longer carries the fence's epoch (or expired), or it was revoked. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  readonly code = 'lease_lost';

  constructor(
    readonly fence: Fence,
    readonly by: 'database' | 'revoked' = 'database',
  ) {
    super(
      by === 'revoked'
        ? `this process gave up epoch ${fence.epoch} of bot "${fence.bot}" (it fenced itself): it writes nothing more as that holder`
        : `the lease on bot "${fence.bot}" no longer carries epoch ${fence.epoch}: another worker holds it, or it expired; this worker must stop acting for it`,
    );
  }
}
