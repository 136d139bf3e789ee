import type { Vec3Like, WorldPort } from '../contracts/world.js';
import type { Executor } from '../executor/executor.js';
import type { ExecutorEvent } from '../executor/events.js';
import type { RuntimeHooks } from '../runtime/hooks.js';
import type { ActionSink } from './action-trace.js';
import type { EventRecord, Journal, JournalWrite, PlannedStep, RevisionInput } from './journal.js';
import type { Fence } from './rows.js';
import { snapshotWorld } from './world-snapshot.js';
import { WriteQueue } from './write-queue.js';

export interface RecorderOptions {
  /** The runner (process) these runs belong to; health checks judge orphans by it. */
  runnerId?: string | null;
  /** The world the executor acts on: a succeeded step's effects (the bot, the blocks it touched) are read from it. */
  world?: WorldPort;
  /** The bot lease every write is made under: once the lease moves on, writes are refused (`lease_lost`). */
  fence?: Fence;
}

export interface PlannedRun {
  planId: string;
  intentId: string;
  steps: readonly PlannedStep[];
  body: unknown;
  world?: unknown;
  resumed?: boolean;
}

interface OpenStep {
  planId: string;
  stepId: string;
  /** The blocks its actions touched: a succeeded step's effects record how they stand after it. */
  touched: Vec3Like[];
}

/**
 * Writes every executor event to the journal, in order, as an ordered queue of domain writes. On SQLite each is on
 * disk before the event's listeners return, as always; on PostgreSQL the writes asked for while a batch commits go
 * together in the next one (one transaction, one fence check), and `flush()` resolves once everything emitted so far
 * is durable: the step executor awaits it before an attempt's first actuator command and after `step.ended`. A
 * failed write stops the recorder: `flush()` rejects (with `code: 'lease_lost'` when the fence was refused), and
 * nothing more is written.
 */
export class JournalRecorder implements ActionSink {
  /** Plans with a run this recorder opened and that have not ended. */
  private readonly begun = new Set<string>();
  /** Open steps, innermost last: a sub-goal runs inside its parent, and actions belong to the innermost. */
  private readonly open: OpenStep[] = [];
  private readonly queue: WriteQueue<JournalWrite>;
  /** Each action's id once its write committed (undefined until then), by the handle `actionStarted` gave. */
  private readonly actionIds = new Map<number, { id?: number }>();
  /** The run each plan's events belong to: its id once its opening committed (undefined until then). */
  private readonly runs = new Map<string, { id?: number }>();
  /** Plans whose run has had a planner's revision journaled by this recorder: a starting step may adopt it. */
  private readonly revised = new Set<string>();
  private nextAction = 1;

  constructor(
    journal: Journal,
    private readonly options: RecorderOptions = {},
  ) {
    this.queue = new WriteQueue((writes) => journal.recordBatch(writes, options.fence), journal.writesOnCall);
  }

  private get runnerId(): string | null {
    return this.options.runnerId ?? null;
  }

  attach(executor: Pick<Executor, 'events'>): () => void {
    const listener = (event: ExecutorEvent) => this.record(event);
    executor.events.on('event', listener);
    return () => executor.events.off('event', listener);
  }

  /** Resolves once every write asked for so far is durable; rejects with the first write that failed. */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /** Journals a plan and opens its run before the executor sees it; the run's id. */
  beginRun(planned: PlannedRun): Promise<number> {
    this.begun.add(planned.planId);
    this.revised.delete(planned.planId);
    // This run's own entry: a later run of the plan gets another, whatever order the commits come in.
    const run: { id?: number } = {};
    this.runs.set(planned.planId, run);
    return this.queue.push<number>({ kind: 'beginRun', run: { ...planned, runnerId: this.runnerId } }, (id) => {
      run.id = id;
    });
  }

  recordIntent(intent: { id: string; source?: string; goal?: string }): void {
    void this.queue.push({ kind: 'intent', intent });
  }

  /** Replacement steps a planner sent, journaled in order with the events around them. */
  recordRevision(revision: RevisionInput): Promise<void> {
    this.revised.add(revision.planId);
    return this.queue.push({ kind: 'revision', revision });
  }

  record(event: ExecutorEvent): void {
    if (event.type === 'plan.accepted' && !this.begun.has(event.planId)) {
      // A plan handed to the executor directly, or planned from an intent: journal what the event tells.
      void this.beginRun({ planId: event.planId, intentId: event.intentId, steps: [], body: null });
    }
    if (event.type === 'plan.replaced') this.revised.add(event.planId);
    // Every revision of a run this recorder began is journaled through it: none means none to adopt.
    const revised = this.begun.has(event.planId) ? this.revised.has(event.planId) : undefined;
    const record: EventRecord = { event, runnerId: this.runnerId, ...(revised === false ? { revised } : {}) };
    // A step refused or deduplicated by its idempotency key ends without step.started: it never opened, so its
    // step.ended finds nothing to close here and leaves no effects.
    if (event.type === 'step.started') this.open.push({ planId: event.planId, stepId: event.stepId, touched: [] });
    if (event.type === 'step.ended') {
      const index = this.open.findLastIndex((s) => s.stepId === event.stepId && s.planId === event.planId);
      const step = index >= 0 ? this.open.splice(index, 1)[0] : undefined;
      const { outcome } = event;
      if (outcome.ok && !outcome.deduplicated && this.options.world)
        record.effects = effectsOf(this.options.world, step?.touched ?? []);
    }
    // The event's run, as it stands now: its id is known once the run's opening committed (until then the journal
    // looks up the plan's latest run).
    const run = this.runs.get(event.planId);
    if (event.type === 'plan.ended') {
      this.begun.delete(event.planId);
      this.runs.delete(event.planId);
      this.revised.delete(event.planId);
    }
    void this.queue.push(() => {
      const runId = run?.id;
      return { kind: 'event', record: runId === undefined ? record : { ...record, runId } };
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
      const at = this.options.world?.position();
      const row = {
        planId: step.planId,
        stepId: step.stepId,
        tree: event.tree,
        changes: event.changes.map((change): [string, string] => [change.nodePath, change.to]),
        position: at ? { x: at.x, y: at.y, z: at.z } : null,
      };
      void this.queue.push({ kind: 'nodeStates', row });
    },
  };

  actionStarted(command: string, args: unknown, touches?: Vec3Like): number | null {
    const step = this.open.at(-1);
    if (!step) return null;
    if (touches) step.touched.push({ x: touches.x, y: touches.y, z: touches.z });
    const handle = this.nextAction++;
    const action = { planId: step.planId, stepId: step.stepId, command, args };
    const known: { id?: number } = {};
    this.actionIds.set(handle, known);
    void this.queue.push<number>({ kind: 'action', action }, (id) => (known.id = id));
    return handle;
  }

  actionSettled(handle: number | null, error?: string): void {
    const known = handle === null ? undefined : this.actionIds.get(handle);
    if (!known) return;
    this.actionIds.delete(handle!);
    // The settle needs the action's id: it waits for the batch that journals the action, and goes in a later one.
    void this.queue.push(() =>
      known.id === undefined ? undefined : { kind: 'settleAction', id: known.id, error: error ?? null },
    );
  }
}

/** What a succeeded step left: the bot as it stands, and each block it touched as it is now. */
function effectsOf(world: WorldPort, touched: readonly Vec3Like[]): NonNullable<EventRecord['effects']> {
  return {
    post: snapshotWorld(world),
    blocks: touched.map((p) => ({ x: p.x, y: p.y, z: p.z, name: world.blockAt(p)?.name ?? 'air' })),
  };
}
