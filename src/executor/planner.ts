import type { FailureCode } from '../contracts/failure-codes.js';
import type { Intent } from '../contracts/intent.js';
import type { Plan, PlanInput } from '../contracts/plan.js';
import type { PlanStep, PlanStepInput } from '../contracts/plan-step.js';
import type { Observation } from '../contracts/world.js';
import type { ExecutorEvent } from './events.js';

/** What a planner is told when a step failed past local repair. */
export interface FailureContext {
  intent?: Intent;
  plan: Plan;
  failedStep: PlanStep;
  failure: { code: FailureCode; detail: string; unmet?: string[] };
  /** The failed step's events, from dispatch to its end. */
  evidence: ExecutorEvent[];
  completedStepIds: string[];
  observation: Observation;
  /** 1 for the first escalation of this plan, 2 for the next, … */
  rung: number;
  /** Set when the planner keeps sending plans like ones that already failed. */
  nudge?: string;
}

/** What a planner is told when branch exploration gathers ways out of a stuck step (`proposeAlternatives`). */
export interface AlternativesRequest {
  failedStep: PlanStep;
  failure: { code: FailureCode; detail: string };
  observation: Observation;
}

/** One step of a proposed alternative: a canonical verb and its arguments. */
export interface AlternativeStep {
  type: string;
  args?: Record<string, unknown>;
}

/** The steps to run instead of the failed step and everything after it, or an explicit give-up. */
export type PlannerReply = { steps: PlanStepInput[] } | { giveUp: string };

export interface Planner {
  readonly name: string;
  /** Turns an intent into a plan; needed only to run intents. */
  plan?(intent: Intent): Promise<PlanInput>;
  onFailure(context: FailureContext): Promise<PlannerReply>;
  /**
   * Optional: ways out of a stuck step, each a short list of steps that should achieve what the step would. Branch
   * exploration tries each on a fork beside the recovery ladder's own candidates, and the best scored runs for real;
   * the step's own expectations then judge it.
   */
  proposeAlternatives?(request: AlternativesRequest): Promise<AlternativeStep[][]>;
}
