import type { Clock } from '../contracts/clock.js';
import type { Vec3Like } from '../contracts/world.js';
import type { Detection, StuckType } from '../stuck/detection.js';
import { backoffDelayMs } from './backoff.js';
import { RecoveryConfigSchema, type RecoveryConfig, type RecoveryConfigInput } from './config.js';
import { IncidentRate } from './incident-rate.js';
import { RecoveryLearning } from './learning.js';
import { RecoveryMetrics } from './recovery-metrics.js';
import { mulberry32 } from '../random.js';
import type {
  RecoveryAction,
  RecoveryBudgetView,
  RecoveryContext,
  RecoveryDecision,
  StrategyKind,
  UnstuckMoveKind,
} from './strategy.js';

/** What a sub-goal should achieve for each stuck type; the executor turns it into planner steps. */
const SUBGOAL_FOR: Record<StuckType, string> = {
  position: 'clear the obstruction next to the agent',
  state: 'satisfy the precondition the step is waiting on',
  progress: 'satisfy the precondition the step lacks (tool, item, reachable target)',
  path: 'make the target reachable (dig through or bridge the obstacle)',
  flap: 'approach the target to within the loosened tolerance',
  no_actuator: 'satisfy the precondition the step is waiting on',
  hanging: 'satisfy the precondition the step is waiting on',
  heartbeat: 'restart the executor loop',
};

export interface RecoveryLadderOptions {
  clock: Clock;
  config?: RecoveryConfigInput | RecoveryConfig;
  /** Shared between agents to learn from all of them; one is created when absent. */
  learning?: RecoveryLearning;
}

/** The way out branch exploration chose (src/recovery/branches.ts), as the ladder records it. */
export interface ChosenBranch {
  candidate: string;
  label: string;
  score: number;
}

export interface RecoveryOutcome {
  /** The stuck condition cleared: the step can resume. */
  resolved: boolean;
}

function distance(a: Vec3Like, b: Vec3Like): number {
  return Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}

/**
 * Chooses recovery actions for one agent, rung by rung, within its budgets.
 * Feed it each stuck detection (`onDetection`) and the outcome of each action
 * (`report`, which returns the next rung or null once resolved). Every
 * decision spends budget, so the ladder always ends: in recovery, escalation
 * to the planner, a pause when incidents are too frequent, or abort (FAILED).
 */
export class RecoveryLadder {
  readonly config: RecoveryConfig;
  readonly learning: RecoveryLearning;
  /** Seed 001's recovery metrics: triggers, successes, the stage that resolved each, iterations. */
  readonly metrics = new RecoveryMetrics();
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly incidents = new IncidentRate();
  private nextId = 1;
  private pausedUntil = Number.NEGATIVE_INFINITY;
  private failure: RecoveryDecision | null = null;
  private incident: Detection | null = null;
  private outstanding: RecoveryDecision | null = null;
  private taskAttempts = 0;
  private escalations = 0;
  private consecutiveStuck = 0;
  private stepAttempts = 0;
  private readonly strategyAttempts = new Map<StrategyKind, number>();
  private readonly movesTried = new Set<UnstuckMoveKind>();
  private tried: string[] = [];

  constructor(options: RecoveryLadderOptions) {
    this.clock = options.clock;
    this.config = RecoveryConfigSchema.parse(options.config ?? {});
    this.learning = options.learning ?? new RecoveryLearning();
    this.random = mulberry32(this.config.strategies.retry.seed);
  }

  /** True while automatic recovery is paused because incidents came too often. */
  get paused(): boolean {
    return this.clock.now() < this.pausedUntil;
  }

  /** The abort decision, once the ladder is exhausted for this task. */
  get failed(): RecoveryDecision | null {
    return this.failure;
  }

  /** What has been tried for the current step, with outcomes, for reports and escalation. */
  get history(): readonly string[] {
    return this.tried;
  }

  beginTask(): void {
    this.taskAttempts = 0;
    this.escalations = 0;
    this.consecutiveStuck = 0;
    this.failure = null;
    this.beginStep();
  }

  beginStep(): void {
    this.stepAttempts = 0;
    this.strategyAttempts.clear();
    this.movesTried.clear();
    this.tried = [];
    this.incident = null;
    this.outstanding = null;
  }

  /** The step finished: stuck detections are no longer consecutive. */
  stepCompleted(): void {
    this.consecutiveStuck = 0;
  }

  /** An operator (or the executor, after a cool-down it chose) lifts a pause early. */
  resume(): void {
    this.pausedUntil = Number.NEGATIVE_INFINITY;
  }

  /**
   * A detector tripped: a new incident. Returns the first rung to perform: the branch exploration chose (`branch`),
   * already run for real by the executor, when one is given and the budgets allow it; else the ladder's own.
   */
  onDetection(detection: Detection, context: RecoveryContext = {}, branch?: ChosenBranch): RecoveryDecision {
    const now = this.clock.now();
    this.incident = detection;
    if (this.failure) return this.failure;
    if (now < this.pausedUntil) return this.pause(detection.type, now, 'automatic recovery is still paused');
    this.incidents.record(now);
    this.metrics.triggered();
    const perHour = this.incidents.count(now);
    const { maxIncidentsPerHour, maxConsecutiveStuck } = this.config.budgets;
    if (perHour > maxIncidentsPerHour) {
      this.pausedUntil = this.incidents.belowLimitAt(now, maxIncidentsPerHour);
      return this.pause(
        detection.type,
        now,
        `${perHour} stuck incidents in the last hour exceed the limit of ${maxIncidentsPerHour}`,
      );
    }
    this.consecutiveStuck += 1;
    if (this.consecutiveStuck >= maxConsecutiveStuck) {
      return this.abort(
        `${this.consecutiveStuck} consecutive stuck detections without completing a step (limit ${maxConsecutiveStuck})`,
      );
    }
    if (branch && this.withinBudgets()) return this.decideBranch(branch);
    return this.choose(context);
  }

  /** The outcome of the last decision; returns the next rung, or null when resolved. */
  report(decision: RecoveryDecision, outcome: RecoveryOutcome, context: RecoveryContext = {}): RecoveryDecision | null {
    if (decision.strategy === 'pause' || decision.strategy === 'abort') {
      throw new Error(`report: decision ${decision.id} is a final ${decision.strategy}; there is no outcome to report`);
    }
    if (this.outstanding?.id !== decision.id) {
      throw new Error(
        `report: decision ${decision.id} is not the outstanding one (${this.outstanding?.id ?? 'none'}); report each decision once, in order`,
      );
    }
    this.outstanding = null;
    if (outcome.resolved) this.metrics.resolvedBy(decision.strategy);
    if (this.config.learning.enabled && decision.strategy !== 'branch') {
      this.learning.record(decision.stuckType, context.situation ?? 'any', decision.strategy, outcome.resolved);
    }
    this.tried[this.tried.length - 1] += outcome.resolved ? ' → resolved' : ' → unresolved';
    if (outcome.resolved) return null;
    if (this.failure) return this.failure;
    return this.choose(context);
  }

  private choose(context: RecoveryContext): RecoveryDecision {
    const incident = this.incident!;
    const { totalPerTask, attemptsPerStep } = this.config.budgets;
    if (this.taskAttempts >= totalPerTask) {
      return this.abort(`the task's recovery budget of ${totalPerTask} attempts is spent`);
    }
    const fitting = this.ordered(incident.type, context);
    if (this.stepAttempts >= attemptsPerStep) {
      const escalation = fitting.includes('escalate') ? this.action('escalate', context) : null;
      if (escalation)
        return this.decide('escalate', escalation, `the step's ${attemptsPerStep} recovery attempts are spent`);
      return this.abort(`the step's ${attemptsPerStep} recovery attempts are spent and escalation is not available`);
    }
    this.noteSkipped(fitting, context);
    for (const kind of fitting) {
      const action = this.action(kind, context);
      if (action) return this.decide(kind, action, `next fitting strategy for ${incident.type}: ${kind}`);
    }
    return this.abort(`every strategy fitting ${incident.type} is used up`);
  }

  /** Fitting strategies in the order to try them; abort is always the last resort, handled by the caller. */
  private ordered(type: StuckType, context: RecoveryContext): StrategyKind[] {
    const kinds = [...new Set(this.config.byType[type])].filter((kind) => kind !== 'abort');
    const { strategies, learning } = this.config;
    const situation = context.situation ?? 'any';
    const rank = kinds.map((kind, index) => ({
      kind,
      index,
      priority: strategies[kind].priority,
      score: learning.enabled ? this.learning.score(type, situation, kind) : 0,
    }));
    rank.sort((a, b) => b.score - a.score || b.priority - a.priority || a.index - b.index);
    return rank.map((entry) => entry.kind);
  }

  /** The action `kind` would take now, or null when it is disabled, used up or unsafe here. */
  private action(kind: StrategyKind, context: RecoveryContext): RecoveryAction | null {
    const { strategies } = this.config;
    const attempt = (this.strategyAttempts.get(kind) ?? 0) + 1;
    const type = this.incident!.type;
    switch (kind) {
      case 'retry':
        if (!strategies.retry.enabled || attempt > strategies.retry.maxAttempts) return null;
        return { kind, delayMs: backoffDelayMs(attempt, strategies.retry, this.random) };
      case 'repath': {
        const { enabled, maxAttempts } = strategies.repath;
        if (!enabled || attempt > maxAttempts || context.unfit?.repath) return null;
        return { kind, alternative: attempt };
      }
      case 'unstuck': {
        if (!strategies.unstuck.enabled) return null;
        const move = strategies.unstuck.moves.find(
          (candidate) => !this.movesTried.has(candidate) && this.moveFits(candidate, context),
        );
        return move ? { kind, move } : null;
      }
      case 'teleport': {
        const { enabled, maxAttempts, maxDistanceBlocks } = strategies.teleport;
        const to = context.safeTeleportDestination;
        const from = this.incident!.position;
        if (!enabled || attempt > maxAttempts || context.serverPermitsTeleport !== true || !to || !from) return null;
        return distance(from, to) <= maxDistanceBlocks ? { kind, to } : null;
      }
      case 'subgoal':
        if (!strategies.subgoal.enabled || attempt > strategies.subgoal.maxAttempts || context.unfit?.subgoal)
          return null;
        return { kind, goal: SUBGOAL_FOR[type] };
      case 'escalate': {
        if (
          !strategies.escalate.enabled ||
          context.canEscalate === false ||
          this.escalations >= strategies.escalate.maxPerTask
        )
          return null;
        const where = this.incident!.position;
        const at = where ? ` at ${Math.floor(where.x)},${Math.floor(where.y)},${Math.floor(where.z)}` : '';
        return { kind, summary: `stuck (${type})${at}: ${this.incident!.reason}`, tried: [...this.tried] };
      }
      case 'abort':
        return null;
    }
  }

  /** Records, once per step, each rung the world ruled out and why, so the history says what was skipped. */
  private noteSkipped(kinds: readonly StrategyKind[], context: RecoveryContext): void {
    const reasons = new Map<string, string>();
    for (const kind of kinds) {
      if (kind === 'unstuck') {
        for (const move of this.config.strategies.unstuck.moves)
          if (context.unfit?.[move]) reasons.set(`unstuck:${move}`, context.unfit[move]);
      } else if (context.unfit?.[kind]) reasons.set(kind, context.unfit[kind]);
    }
    for (const [rung, why] of reasons) {
      const line = `${rung} skipped: ${why}`;
      if (!this.tried.includes(line)) this.tried.push(line);
    }
  }

  private moveFits(move: UnstuckMoveKind, context: RecoveryContext): boolean {
    if (context.unfit?.[move]) return false;
    if (move === 'dig_out') return context.canDig !== false;
    if (move === 'pillar_up') return context.hasPlaceableBlock === true;
    return true;
  }

  private decide(kind: StrategyKind, action: RecoveryAction, reason: string): RecoveryDecision {
    const attempt = (this.strategyAttempts.get(kind) ?? 0) + 1;
    this.strategyAttempts.set(kind, attempt);
    if (action.kind === 'unstuck') this.movesTried.add(action.move);
    if (kind === 'escalate') this.escalations += 1;
    return this.spend(kind, action, attempt, reason, kind === 'escalate' ? 'PLANNING' : 'RECOVERING');
  }

  private withinBudgets(): boolean {
    const { totalPerTask, attemptsPerStep } = this.config.budgets;
    return this.taskAttempts < totalPerTask && this.stepAttempts < attemptsPerStep;
  }

  /** The branch the forks chose counts as a rung: it spends the same budgets, and the rungs after it are the ladder's. */
  private decideBranch(branch: ChosenBranch): RecoveryDecision {
    const action: RecoveryAction = { kind: 'branch', ...branch };
    const reason = `branch exploration chose ${branch.label} (score ${branch.score})`;
    return this.spend('branch', action, 1, reason, 'RECOVERING');
  }

  private spend(
    kind: StrategyKind | 'branch',
    action: RecoveryAction,
    attempt: number,
    reason: string,
    nextState: RecoveryDecision['nextState'],
  ): RecoveryDecision {
    this.stepAttempts += 1;
    this.taskAttempts += 1;
    this.metrics.iterated();
    this.tried.push(this.label(action, attempt));
    const decision = this.build(kind, action, attempt, reason, nextState);
    this.outstanding = decision;
    return decision;
  }

  private abort(why: string): RecoveryDecision {
    const incident = this.incident!;
    const reason = `recovery exhausted: ${why}; last stuck: ${incident.reason}`;
    const code = incident.failureCode ?? 'escalation_exhausted';
    this.failure = this.build('abort', { kind: 'abort', code, reason }, 1, why, 'FAILED');
    this.outstanding = null;
    return this.failure;
  }

  private pause(type: StuckType, now: number, why: string): RecoveryDecision {
    const until = this.pausedUntil;
    const reason = `automatic recovery paused until ${until} (in ${until - now} ms): ${why}; resume() lifts the pause earlier`;
    return this.build('pause', { kind: 'pause', until, reason }, 1, why, 'PAUSED', type);
  }

  private build(
    strategy: StrategyKind | 'pause' | 'branch',
    action: RecoveryAction,
    attempt: number,
    reason: string,
    nextState: RecoveryDecision['nextState'],
    type: StuckType = this.incident!.type,
  ): RecoveryDecision {
    const priority = strategy === 'pause' || strategy === 'branch' ? null : this.config.strategies[strategy].priority;
    return {
      id: this.nextId++,
      action,
      strategy,
      priority,
      attempt,
      stuckType: type,
      reason,
      nextState,
      decidedAt: this.clock.now(),
      budget: this.budget(),
    };
  }

  private budget(): RecoveryBudgetView {
    const { budgets, strategies } = this.config;
    return {
      stepAttempts: this.stepAttempts,
      stepAttemptLimit: budgets.attemptsPerStep,
      taskAttempts: this.taskAttempts,
      taskAttemptLimit: budgets.totalPerTask,
      consecutiveStuck: this.consecutiveStuck,
      consecutiveStuckLimit: budgets.maxConsecutiveStuck,
      incidentsLastHour: this.incidents.count(this.clock.now()),
      incidentsPerHourLimit: budgets.maxIncidentsPerHour,
      escalations: this.escalations,
      escalationLimit: strategies.escalate.maxPerTask,
    };
  }

  private label(action: RecoveryAction, attempt: number): string {
    switch (action.kind) {
      case 'retry':
        return `retry#${attempt} after ${action.delayMs} ms`;
      case 'repath':
        return `repath#${attempt}`;
      case 'unstuck':
        return `unstuck:${action.move}`;
      case 'teleport':
        return `teleport to ${action.to.x},${action.to.y},${action.to.z}`;
      case 'subgoal':
        return `subgoal: ${action.goal}`;
      case 'branch':
        return `branch: ${action.label} (score ${action.score})`;
      default:
        return `${action.kind}#${attempt}`;
    }
  }
}
