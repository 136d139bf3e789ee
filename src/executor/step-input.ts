import type { PlanStep, SafetyOverride } from '../contracts/plan-step.js';
import type { AnyCapabilitySpec } from '../registry/capability-spec.js';
import type { StepRecord } from './events.js';

/** One step as the executor dispatches it: a plan's own, a sub-goal, or a step the executor decided on. */
export interface StepInput {
  step: PlanStep;
  spec: AnyCapabilitySpec;
  args: unknown;
  /** 0 for a plan's own steps; sub-goal steps run one level deeper. */
  depth: number;
  parentStepId?: string;
  /** Fast-path (safety) steps are not themselves preempted. */
  preemptible: boolean;
  /**
   * A safety response: its args are the judgement of an encounter at one moment (a flight's way, the mobs it was
   * judged with). An attempt whose effects the world does not show is not retried as it was judged: the fast path
   * judges the encounter again from where the bot stands.
   */
  judgedNow?: true;
  /** The plan's and the step's combat policy over the executor's (a sub-goal runs under its parent's). */
  combat?: SafetyOverride;
  /** A sub-goal or repair step must end by its parent's deadline. */
  deadlineCap?: number;
  /** The parent's TTFA hook: a sub-goal's first action is its parent's first action too. */
  onFirstAction?: (command: string) => void;
}

/**
 * Runs one step to exactly one `step.ended`. Sub-goals, repair moves and
 * safety responses are steps too; they reach the step executor through this
 * function in the run's scope, so no module below the executor imports it.
 */
export type StepRunner = (input: StepInput) => Promise<StepRecord>;
