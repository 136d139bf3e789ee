import type { Expectation } from '../../contracts/expectation.js';
import type { HealthConfig } from '../health-config.js';
import type { HealthSweep } from '../health-types.js';
import type { ClaimAnswer, IdempotencyClaim } from '../../executor/idempotency.js';
import {
  LeaseLostError,
  type ActionInput,
  type BeginRun,
  type EventRecord,
  type IncidentInput,
  type Journal,
  type JournalWrite,
  type NodeStatesInput,
  type PlanLeaseRequest,
  type RevisionInput,
} from '../journal.js';
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
} from '../rows.js';
import type { StepStatus } from '../rows.js';
import type {
  EventFeedPage,
  IncidentFilter,
  MeasuredSla,
  NodeStatesRow,
  PlanProvenance,
  ResumeRecord,
  RunSummary,
} from '../views.js';
import { recordBatch } from './batch.js';
import { reportBots } from './bot-status.js';
import { recordEvent } from './events.js';
import * as fleet from './fleet.js';
import { healthSweep } from './health-sweep.js';
import * as control from './plan-control.js';
import type { PlanControl, PlanControlAction, PlanControlAnswer } from './plan-control.js';
import * as ledger from './ledger.js';
import * as leases from './plan-leases.js';
import * as reads from './reads.js';
import * as record from './record.js';
import * as resume from './resume.js';
import * as retract from './retract.js';
import * as runners from './runners.js';
import { settled, type Tx } from './tx.js';
import * as versions from './version-runs.js';
import type { PromotionRow } from './version-runs.js';
import type { VersionRun } from '../../registry/canary-sla.js';

export interface TxOptions {
  /** Run only while the bot's lease carries this epoch, checked in the same transaction. */
  fence?: Fence | undefined;
  /** Roll back at the end, whatever it wrote (a dry run). */
  rollback?: boolean;
  /** Reads only. */
  readOnly?: boolean;
  /** Wait for the health sweeper's lock: one sweep at a time across every process sharing the journal. */
  sweeper?: boolean;
  /**
   * A lease's claim or renewal: on PostgreSQL it runs on connections of its own, so it never queues behind the held
   * bots' step writes and plan claims (behind them, a renewal came back too late and its worker fenced its own bots).
   */
  lease?: boolean;
  /**
   * The body is one statement: PostgreSQL runs it alone (its own implicit transaction), one round trip instead of
   * three, each of which waits for a turn of a busy worker's event loop.
   */
  single?: boolean;
}

/**
 * The journal's domain operations, once for both engines: each runs one piece of `sql/` logic in one transaction
 * of the backend (`transact`). A fenced write first checks its lease in that transaction; a refused one rejects with
 * a LeaseLostError and is counted.
 */
export abstract class SqlJournal implements Journal {
  abstract readonly backend: 'sqlite' | 'postgres';
  abstract readonly location: string;
  abstract readonly writesOnCall: boolean;
  private refused = 0;
  /** Fences this process gave up (`revokeFence`), as `bot#epoch`. */
  private readonly revoked = new Set<string>();

  /** Runs `body` in one transaction. */
  protected abstract transact<R>(body: () => Tx<R>, options: TxOptions): Promise<R>;
  /**
   * Checks the fence, first in its write's transaction, and throws LeaseLostError (or makes the transaction fail with
   * an error `transact` turns into one) when the lease no longer carries its epoch; PostgreSQL also takes a share lock
   * on the lease row, so no claim can pass the write while it is open.
   */
  protected abstract checkFence(fence: Fence): Tx<void>;
  /** What a claim's row lock adds so that it skips a row another transaction holds, never waiting for it. */
  protected abstract readonly skipLockedSql: string;
  /** Takes the health sweeper's lock for the transaction if no other process holds it: one row, `got` true or 1. */
  protected abstract readonly trySweeperSql: string;
  abstract schemaVersion(): Promise<number>;
  abstract close(): Promise<void>;
  abstract eventFeed(cursor: string | null, limit: number): Promise<EventFeedPage>;
  abstract eventFeedEnd(): Promise<string | null>;

  get fencedWritesRefused(): number {
    return this.refused;
  }

  revokeFence(fence: Fence): void {
    this.revoked.add(fenceKey(fence));
  }

  /**
   * A write, fenced when a fence is given. A fence this process revoked refuses it here, before the database, unless
   * it is the `final` write a revoked fence still permits (the database judges that one).
   */
  protected write<R>(body: () => Tx<R>, fence?: Fence, options: { final?: boolean; writes?: number } = {}): Promise<R> {
    if (!fence) return this.transact(body, {});
    const writes = options.writes ?? 1;
    if (!options.final && this.revoked.has(fenceKey(fence))) {
      this.refused += writes;
      return Promise.reject(new LeaseLostError(fence, 'revoked'));
    }
    const check = (): Tx<void> => this.checkFence(fence);
    const fenced = function* (): Tx<R> {
      yield* check();
      return yield* body();
    };
    return this.transact(fenced, { fence }).catch((error: unknown) => {
      if (error instanceof LeaseLostError) this.refused += writes;
      throw error;
    });
  }

  protected read<R>(body: () => Tx<R>): Promise<R> {
    return this.transact(body, { readOnly: true });
  }

  /** A read of one statement, which sees one snapshot by itself: on PostgreSQL one round trip, not three. */
  private readAlone<R>(body: () => Tx<R>): Promise<R> {
    return this.transact(body, { readOnly: true, single: true });
  }

  registerRunner(
    runner: { id: string; pid: number; host: string; kind: string },
    options: { takeOverSilentAfterMs?: number } = {},
  ): Promise<void> {
    return this.write(() => runners.registerRunner(runner, options.takeOverSilentAfterMs));
  }
  beatRunner(id: string): Promise<void> {
    return this.write(() => runners.beatRunner(id));
  }
  stopRunner(id: string): Promise<void> {
    return this.write(() => runners.stopRunner(id));
  }

  recordIntent(intent: { id: string; source?: string; goal?: string }, fence?: Fence): Promise<void> {
    return this.write(() => record.recordIntent(intent), fence);
  }
  beginRun(run: BeginRun, fence?: Fence): Promise<number> {
    return this.write(() => record.beginRun(run, fence?.epoch ?? null), fence);
  }
  recordEvent(event: EventRecord, fence?: Fence): Promise<void> {
    return this.write(() => recordEvent(event), fence);
  }
  recordAction(action: ActionInput, fence?: Fence): Promise<number> {
    const write = () => record.recordAction(action.planId, action.stepId, action.command, action.args);
    return this.write(write, fence).then((id) => id.value);
  }
  settleAction(id: number, error: string | null, fence?: Fence): Promise<void> {
    return this.write(() => record.settleAction(id, error), fence);
  }
  recordNodeStates(row: NodeStatesInput, fence?: Fence): Promise<void> {
    return this.write(() => record.recordNodeStates(row), fence);
  }
  recordRevision(revision: RevisionInput, fence?: Fence): Promise<void> {
    return this.write(() => record.recordRevision(revision), fence);
  }
  recordBatch(writes: readonly JournalWrite[], fence?: Fence): Promise<unknown[]> {
    const answers = this.write(() => recordBatch(writes, fence?.epoch ?? null), fence, { writes: writes.length });
    return answers.then((committed) => committed.map(settled));
  }
  setPlanStatus(planId: string, status: string, fence?: Fence): Promise<void> {
    return this.write(() => record.setPlanStatus(planId, status), fence);
  }
  transition(planId: string, stepId: string, to: StepStatus, reason: string, fence?: Fence): Promise<boolean> {
    return this.write(() => record.transition(planId, stepId, to, reason, null), fence);
  }

  claimKey(claim: IdempotencyClaim & { runnerId: string | null }, fence?: Fence): Promise<ClaimAnswer> {
    return this.write(() => ledger.claimKey(claim), fence);
  }
  completeKey(key: string, expectations: readonly Expectation[], fence?: Fence): Promise<void> {
    return this.write(() => ledger.completeKey(key, expectations), fence);
  }
  releaseKey(key: string, fence?: Fence): Promise<void> {
    return this.write(() => ledger.releaseKey(key), fence);
  }
  completedKeys(): Promise<string[]> {
    return this.read(() => ledger.completedKeys());
  }

  acquirePlanLease(request: PlanLeaseRequest): Promise<void> {
    return this.write(() => leases.acquirePlanLease(request));
  }
  renewPlanLease(planId: string, token: string): Promise<boolean> {
    return this.write(() => leases.renewPlanLease(planId, token));
  }
  releasePlanLease(planId: string, token: string): Promise<void> {
    return this.write(() => leases.releasePlanLease(planId, token));
  }
  planLeaseHolder(planId: string): Promise<PlanLeaseRow | undefined> {
    return this.read(() => leases.planLeaseHolder(planId));
  }

  openIncident(incident: IncidentInput): Promise<number> {
    return this.write(() => record.openIncident(incident));
  }
  resolveIncident(id: number, resolution: string): Promise<void> {
    return this.write(() => record.resolveIncident(id, resolution));
  }
  incident(id: number): Promise<IncidentRow | undefined> {
    return this.read(() => reads.incident(id));
  }
  listIncidents(filter: IncidentFilter = {}): Promise<{ total: number; incidents: IncidentRow[] }> {
    return this.read(() => reads.listIncidents(filter));
  }
  clearResolvedIncidents(olderThanMs: number): Promise<number> {
    return this.write(() => reads.clearResolvedIncidents(olderThanMs));
  }

  plan(planId: string): Promise<PlanRow | undefined> {
    return this.read(() => reads.plan(planId));
  }
  listRuns(limit = 20): Promise<RunSummary[]> {
    return this.read(() => reads.listRuns(limit));
  }
  planProvenance(
    planId: string,
    page?: { offset: number; limit: number },
  ): Promise<(PlanProvenance & { stepsTotal: number }) | null> {
    return this.read(() => reads.planProvenance(planId, page));
  }
  nodeStateHistory(
    planId: string,
    page: { after: number; limit: number },
  ): Promise<{ rows: NodeStatesRow[]; more: boolean } | null> {
    return this.read(() => reads.nodeStateHistory(planId, page));
  }
  eventHistory(
    planId: string,
    page: { after: number; limit: number },
  ): Promise<{ rows: { id: number; type: string; at: number; event: unknown }[]; more: boolean } | null> {
    return this.read(() => reads.eventHistory(planId, page));
  }
  measuredSla(): Promise<MeasuredSla[]> {
    return this.read(() => reads.measuredSla());
  }
  recordVersionRun(run: VersionRun): Promise<void> {
    return this.write(() => versions.recordVersionRun(run));
  }
  versionRuns(verb?: string): Promise<VersionRun[]> {
    return this.read(() => versions.versionRuns(verb));
  }
  recordPromotion(verb: string, version: string): Promise<void> {
    return this.write(() => versions.recordPromotion(verb, version));
  }
  promotions(): Promise<PromotionRow[]> {
    return this.read(() => versions.promotions());
  }

  resumeRecord(planId: string): Promise<ResumeRecord | null> {
    return this.read(() => resume.resumeRecord(planId));
  }
  lineEffects(planId: string): Promise<EffectRow[]> {
    return this.read(() => resume.lineEffects(planId));
  }
  distrustUnsavedSteps(planId: string, savedAt: number): Promise<string[]> {
    return this.write(() => resume.distrustUnsavedSteps(planId, savedAt));
  }
  successesSince(bot: string, since: number, running: boolean, runnerId?: string): Promise<retract.RecordedSuccess[]> {
    return this.read(() => retract.successesSince(bot, since, running, runnerId));
  }
  retractSteps(retractions: readonly retract.Retraction[], restart: string, fence?: Fence): Promise<void> {
    return this.write(() => retract.retractSteps(retractions, restart), fence);
  }

  healthSweep(options: {
    config: HealthConfig;
    selfRunnerId?: string;
    isAlive: (pid: number) => boolean;
    dryRun: boolean;
  }): Promise<HealthSweep> {
    // A read (dry run) waits for a sweep under way and then sees what it did; a recovering sweep that finds another
    // one under way skips its round.
    if (options.dryRun) return this.transact(() => healthSweep(options), { rollback: true, sweeper: true });
    const trySweeperSql = this.trySweeperSql;
    return this.transact(() => healthSweep(options, trySweeperSql), {});
  }

  addBot(bot: { name: string; settings?: unknown }): Promise<void> {
    return this.write(() => fleet.addBot(bot));
  }
  listBots(): Promise<BotView[]> {
    return this.read(() => fleet.listBots());
  }
  claimBot(bot: string, holder: string, ttlMs: number): Promise<number | null> {
    return this.transact(() => fleet.claimBot(bot, holder, ttlMs, this.skipLockedSql), { lease: true });
  }
  renewLeases(holder: string, ttlMs: number): Promise<Fence[]> {
    return this.transact(() => fleet.renewLeases(holder, ttlMs), { lease: true, single: true });
  }
  releaseBot(fence: Fence & { holder: string }): Promise<boolean> {
    return this.write(() => fleet.releaseBot(fence));
  }
  reportBots(reports: readonly BotReport[]): Promise<number> {
    return this.write(() => reportBots(reports));
  }
  enqueuePlan(plan: { planId: string; intentId: string; bot: string; body: unknown }): Promise<EnqueueAnswer> {
    return this.write(() => fleet.enqueuePlan(plan));
  }
  claimNextPlan(fence: Fence): Promise<QueuedPlan | null> {
    return this.write(() => fleet.claimNextPlan(fence), fence);
  }
  requestPlanControl(planId: string, action: PlanControlAction, reason: string): Promise<PlanControlAnswer> {
    return this.write(() => control.requestPlanControl(planId, action, reason));
  }
  planControl(planId: string): Promise<PlanControl | null> {
    return this.readAlone(() => control.planControl(planId));
  }
  queuedBots(holder: string): Promise<string[]> {
    return this.readAlone(() => fleet.queuedBots(holder));
  }
  interruptPlan(planId: string, why: fleet.Interruption, fence?: Fence): Promise<string[]> {
    return this.write(() => fleet.interruptPlan(planId, why), fence, { final: true });
  }
}

const fenceKey = (fence: Fence) => `${fence.bot}#${fence.epoch}`;
