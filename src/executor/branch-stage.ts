import { chooseBranch, describeBranches, type BranchCandidate, type ScoredBranch } from '../recovery/branches.js';
import type { ChosenBranch } from '../recovery/recovery-ladder.js';
import type { RecoveryDecision } from '../recovery/strategy.js';
import { gatherCandidates, recipeCandidates } from './branch-candidates.js';
import { helperParentOf, runHelperStep } from './fast-path.js';
import type { AlternativeStep } from './planner.js';
import { moveAgent } from './scope.js';
import type { Failure, StepState } from './step-state.js';

/** What branch exploration found for a stuck step: every branch with its score, and the one chosen (if any scored). */
export interface Exploration {
  scored: ScoredBranch[];
  chosen: (ScoredBranch & { score: number }) | null;
  /** One line per branch, the choice marked: for events, the journal and `show`. */
  summary: string;
}

/**
 * The branch stage (issue 33 §2), between local repair and the ladder's rungs: gathers up to `branches.count` ways
 * out, has the explorer try each on a fork, and picks the best scored. Null when the stage is off (no explorer, or
 * `recovery.branches.enabled` false), recovery is paused, or the explorer failed; then the ladder goes on as before.
 * When none scores, a `step.warning` says so with every branch's result.
 */
export async function exploreBranches(state: StepState, failure: Failure): Promise<Exploration | null> {
  const { scope, input, base } = state;
  const config = scope.ladder.config.branches;
  if (!config.enabled || !scope.explorer || scope.ladder.paused || scope.signal.aborted) return null;
  const args = (input.args ?? {}) as Record<string, unknown>;
  const warn = (message: string) =>
    scope.emit({ type: 'step.warning', at: scope.clock.now(), ...base, message: `branch exploration: ${message}` });
  const exploringFrom = scope.clock.now();
  try {
    const proposals = await plannerProposals(state, failure, warn);
    const situation = { verb: input.spec.name, args, target: state.target, proposals };
    const candidates = gatherCandidates(scope, situation, config.count);
    const scored = await scope.explorer.explore({
      world: scope.world,
      candidates,
      step: { verb: input.spec.name, args },
      judgeBy: state.asked?.expectations ?? [],
      config,
    });
    // The forks are thinking time, as sub-goals are: the step's own deadline moves by it (never past its cap).
    state.deadlineAt = Math.min(input.deadlineCap ?? Infinity, state.deadlineAt + (scope.clock.now() - exploringFrom));
    const at = scope.clock.now();
    scope.emit({ type: 'step.resumed', at, ...base, after: 'branch exploration', deadlineAt: state.deadlineAt });
    const chosen = chooseBranch(scored) as Exploration['chosen'];
    const summary = describeBranches(scored, chosen);
    if (!chosen) warn(`none of ${scored.length} branches scored, the ladder goes on: ${summary}`);
    return { scored, chosen, summary };
  } catch (error) {
    warn(`the forks failed (${error instanceof Error ? error.message : String(error)}), the ladder goes on`);
    return null;
  }
}

/** The ways out each planner with `proposeAlternatives` offers; a planner that fails is named and left out. */
async function plannerProposals(
  state: StepState,
  failure: Failure,
  warn: (message: string) => void,
): Promise<AlternativeStep[][]> {
  const { scope, input } = state;
  const proposals: AlternativeStep[][] = [];
  for (const planner of scope.planners) {
    if (!planner.proposeAlternatives) continue;
    try {
      const observation = await scope.world.observe({});
      const offered = await planner.proposeAlternatives({
        failedStep: input.step,
        failure: { code: failure.code, detail: failure.detail },
        observation,
      });
      proposals.push(...offered.filter((steps) => steps.length > 0));
    } catch (error) {
      warn(`planner ${planner.name} could not propose alternatives: ${(error as Error).message}`);
    }
  }
  return proposals;
}

/** The chosen branch as the ladder records it. */
export function chosenBranch(exploration: Exploration | null): ChosenBranch | undefined {
  const chosen = exploration?.chosen;
  return chosen ? { candidate: chosen.candidate.id, label: chosen.candidate.label, score: chosen.score } : undefined;
}

/**
 * Runs the chosen branch's steps for real, each a full nested step (guard, verification, journal) under the stuck
 * step, and says so as `step.repair` with every branch's score. Resolves `done` when every step of a branch that
 * stands in for the step (`thenStep` false) ended ok: the caller then checks the step's own expectations in the world.
 */
export async function runChosenBranch(
  state: StepState,
  failure: Failure,
  decision: RecoveryDecision,
  exploration: Exploration,
): Promise<{ done: boolean }> {
  const { scope, input } = state;
  const candidate = exploration.chosen!.candidate;
  moveAgent(scope, 'RECOVERING', `${failure.code}: ${decision.reason}`);
  const ranAll = await runSteps(state, candidate);
  moveAgent(scope, 'EXECUTING', `branch done: ${candidate.label}`);
  state.lastRung = `branch: ${candidate.label}`;
  noteRung(
    state,
    `branch: ${candidate.label} (score ${exploration.chosen!.score})`,
    failure,
    `${failure.detail}; branch exploration of ${input.spec.name}: ${exploration.summary}${ranAll ? '' : '; a step of the chosen branch failed for real'}`,
  );
  return { done: ranAll && !candidate.thenStep };
}

/** A rung done (a ladder's or a branch): counted as a repair and told as `step.repair`, which closes the attempt. */
export function noteRung(state: StepState, strategy: string, failure: Failure, detail: string): void {
  const { scope, base } = state;
  state.repairs++;
  scope.metrics.recordRepair();
  scope.emit({ type: 'step.repair', at: scope.clock.now(), ...base, strategy, code: failure.code, detail });
}

async function runSteps(state: StepState, candidate: BranchCandidate): Promise<boolean> {
  const { scope, input } = state;
  for (const step of candidate.steps) {
    if (scope.signal.aborted) return false;
    const parent = helperParentOf(input, state.deadlineAt);
    const record = await runHelperStep(scope, step.verb, step.args, input.step.stepId, 'branch', parent);
    if (record?.outcome.ok !== true) return false;
  }
  return true;
}

/**
 * Branch exploration for a craft whose guard's sub-goals could not get its recipe's usual input (issue 33 §4's recipe
 * case; no ladder is climbed for a missing ingredient): the item's other recipes whose ingredients the pack can make
 * are tried on forks, and the best scored runs for real (its crafts as nested steps), told as `step.repair`. True when
 * it ran: the step then tries again, its guard judging the pack as it now is. Once a step; off as the branch stage is.
 */
export async function exploreOtherRecipes(state: StepState, failure: Failure): Promise<boolean> {
  const { scope, input, base } = state;
  const config = scope.ladder.config.branches;
  const args = (input.args ?? {}) as Record<string, unknown>;
  const { item, count } = args;
  if (!config.enabled || !scope.explorer || scope.signal.aborted || input.parentStepId !== undefined) return false;
  if (input.spec.name !== 'craft_item' || typeof item !== 'string' || state.lastRung?.startsWith('branch:'))
    return false;
  const candidates = recipeCandidates(scope, item, typeof count === 'number' ? count : 1, config.count);
  if (candidates.length === 0) return false;
  const warn = (message: string) =>
    scope.emit({ type: 'step.warning', at: scope.clock.now(), ...base, message: `branch exploration: ${message}` });
  let scored: ScoredBranch[];
  try {
    scored = await scope.explorer.explore({
      world: scope.world,
      candidates,
      step: { verb: input.spec.name, args },
      judgeBy: [],
      config,
    });
  } catch (error) {
    warn(`the forks failed (${error instanceof Error ? error.message : String(error)})`);
    return false;
  }
  const chosen = chooseBranch(scored);
  const summary = describeBranches(scored, chosen);
  state.lastRung = `branch: ${chosen?.candidate.label ?? 'none scored'}`;
  if (!chosen) {
    warn(`none of ${scored.length} other recipes scored: ${summary}`);
    return false;
  }
  moveAgent(scope, 'RECOVERING', `${failure.code}: another recipe`);
  const ranAll = await runSteps(state, chosen.candidate);
  moveAgent(scope, 'EXECUTING', `branch done: ${chosen.candidate.label}`);
  const detail = `${failure.detail}; branch exploration of ${input.spec.name}: ${summary}`;
  noteRung(state, `branch: ${chosen.candidate.label} (score ${chosen.score})`, failure, detail);
  return ranAll;
}
