import type { FailureCode } from '../contracts/failure-codes.js';
import type { Vec3Like } from '../contracts/world.js';
import type { StuckType } from '../stuck/detection.js';
import type { AgentState } from './agent-state-machine.js';

export const STRATEGY_KINDS = ['retry', 'repath', 'unstuck', 'teleport', 'subgoal', 'escalate', 'abort'] as const;
export type StrategyKind = (typeof STRATEGY_KINDS)[number];

/** Moves that get a body out of a tight spot; the executor performs them through the world. */
export const UNSTUCK_MOVES = ['jump', 'back_up', 'dig_out', 'pillar_up'] as const;
export type UnstuckMoveKind = (typeof UNSTUCK_MOVES)[number];

/** What the executor should do. Plain data: the ladder decides, the executor acts through the world. */
export type RecoveryAction =
  | { kind: 'retry'; delayMs: number }
  | { kind: 'repath'; alternative: number }
  | { kind: 'unstuck'; move: UnstuckMoveKind }
  | { kind: 'teleport'; to: Vec3Like }
  | { kind: 'subgoal'; goal: string }
  | { kind: 'escalate'; summary: string; tried: readonly string[] }
  | { kind: 'abort'; code: FailureCode; reason: string }
  /** Branch exploration chose this way out on a fork; the executor has run it for real. */
  | { kind: 'branch'; candidate: string; label: string; score: number }
  | { kind: 'pause'; until: number; reason: string };

export interface RecoveryBudgetView {
  stepAttempts: number;
  stepAttemptLimit: number;
  taskAttempts: number;
  taskAttemptLimit: number;
  consecutiveStuck: number;
  consecutiveStuckLimit: number;
  incidentsLastHour: number;
  incidentsPerHourLimit: number;
  escalations: number;
  escalationLimit: number;
}

export interface RecoveryDecision {
  /** Increasing per ladder; `report` takes it back. */
  readonly id: number;
  readonly action: RecoveryAction;
  readonly strategy: StrategyKind | 'pause' | 'branch';
  /** The strategy's priority; null for a pause or a branch, which are not the ladder's strategies. */
  readonly priority: number | null;
  /** 1-based attempt of this strategy within the step. */
  readonly attempt: number;
  readonly stuckType: StuckType;
  /** Why this rung: which budget ran out, or which strategy comes next and why. */
  readonly reason: string;
  /** The state the agent should be in while (or after) performing the action. */
  readonly nextState: Extract<AgentState, 'RECOVERING' | 'PLANNING' | 'PAUSED' | 'FAILED'>;
  readonly decidedAt: number;
  readonly budget: RecoveryBudgetView;
}

/** What the executor knows about the situation, for strategies that depend on it. */
export interface RecoveryContext {
  /** Learning key: where this happened, e.g. the capability verb. Default `any`. */
  situation?: string;
  /** The server lets this bot teleport (op, /tp allowed). */
  serverPermitsTeleport?: boolean;
  /** A destination the world verified safe: solid floor, two air blocks, no lava or void. */
  safeTeleportDestination?: Vec3Like | null;
  /** The bot can break what surrounds it (has a tool, blocks are diggable). Default true. */
  canDig?: boolean;
  /** The bot holds a block it can place under itself. Default false. */
  hasPlaceableBlock?: boolean;
  /** A planner is available to escalate to. Default true. */
  canEscalate?: boolean;
  /**
   * Rungs that cannot apply here, each with the reason the world gives (a strategy kind or an
   * unstuck move): the ladder skips them and says why, instead of spending time on them.
   */
  unfit?: Partial<Record<StrategyKind | UnstuckMoveKind, string>>;
}
