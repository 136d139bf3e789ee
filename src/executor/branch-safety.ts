import type { Expectation } from '../contracts/expectation.js';
import {
  BranchConfigSchema,
  chooseBranch,
  describeBranches,
  type BranchCandidate,
  type BranchTrial,
  type ScoredBranch,
} from '../recovery/branches.js';
import type { FastPathStep, SafetySignal } from './safety/index.js';
import type { RunScope } from './scope.js';

/*
 * The safety layer's options compared on forks (issue 33 §2, last sentence): with `policy.safety.compareOnForks`, the
 * top responses to a hostile run each on a fork of the moment for a short simulated budget, with the mobs acting, and
 * the one that ends with the threats gone and the most health left (safetyScore) is answered first. The assessment's order stands
 * when none scores or the forks fail.
 */

/*
 * A response's worth on its fork: half for the threats gone (none of them within the hostile radius when it ended),
 * half for the health kept, less up to 0.1 for the time it took. A response that failed on its fork, or whose fork was
 * cut off, does not score; one still running at the budget's end (a shelter waiting, a fight going on) is judged as
 * it stands then.
 */
const FOR_THREATS_GONE = 0.5;
const FOR_HEALTH_KEPT = 0.5;
const COST_OF_WHOLE_BUDGET = 0.1;

export function safetyScore(trial: BranchTrial, healthBefore: number, simBudgetMs: number): number | null {
  if (trial.outcome !== 'ok' && trial.outcome !== 'sim_budget') return null;
  const kept = 1 - Math.min(1, trial.damage / healthBefore);
  const time = COST_OF_WHOLE_BUDGET * Math.min(1, trial.simulatedMs / simBudgetMs);
  return Math.round((FOR_THREATS_GONE * trial.progress + FOR_HEALTH_KEPT * kept - time) * 1000) / 1000;
}

/** Fight, flee and a shelter: the assessment's first three answers that are not eating. */
const OPTIONS = 3;
/** A flight runs farther than a stuck step's way out: the forks copy as far as a view goes (captureView's limit). */
const FLIGHT_VIEW = { radius: 32, height: 8 };
/** Real time the comparison may take in all: a fight does not wait long. */
const WALL_BUDGET_MS = 20_000;

export interface RankedResponses {
  responses: FastPathStep[];
  /** Every option with its score on its fork and the choice marked; null when no fork ran. */
  forks: string | null;
}

export async function rankOnForks(scope: RunScope, threat: SafetySignal): Promise<RankedResponses> {
  const settings = scope.policy.safety;
  const threats = threat.assessment?.threats ?? [];
  const asAssessed = { responses: threat.responses, forks: null };
  if (!settings.compareOnForks || !scope.explorer || threat.signal !== 'hostile' || threats.length === 0)
    return asAssessed;
  const options = threat.responses.filter((response) => response.verb !== 'consume_food').slice(0, OPTIONS);
  if (options.length < 2) return asAssessed;
  const candidates: BranchCandidate[] = options.map((response, index) => ({
    id: `safety:${index + 1}`,
    source: 'safety',
    label: response.reason ? `${response.verb} (${response.reason})` : response.verb,
    steps: [...(response.before ?? []), response].map(({ verb, args }) => ({ verb, args })),
    thenStep: false,
  }));
  const judgeBy: Expectation[] = [
    { kind: 'no_entities', names: [...new Set(threats.map((t) => t.name))], radius: settings.hostileRadius },
  ];
  const config = BranchConfigSchema.parse({
    enabled: true,
    count: candidates.length,
    simBudgetMs: settings.forkBudgetMs,
    wallBudgetMs: WALL_BUDGET_MS,
    totalBudgetMs: WALL_BUDGET_MS,
  });
  let scored: ScoredBranch[];
  try {
    scored = await scope.explorer.explore({
      world: scope.world,
      candidates,
      step: candidates[0]!.steps.at(-1)!,
      judgeBy,
      config,
      view: FLIGHT_VIEW,
    });
  } catch (error) {
    return { ...asAssessed, forks: `the forks failed (${error instanceof Error ? error.message : String(error)})` };
  }
  const health = Math.max(1, scope.world.health());
  const rescored = scored.map((branch) => ({
    ...branch,
    score: safetyScore(branch.trial, health, config.simBudgetMs),
  }));
  const chosen = chooseBranch(rescored);
  const forks = describeBranches(rescored, chosen);
  if (!chosen) return { responses: threat.responses, forks };
  const first = options[rescored.indexOf(chosen)]!;
  return { responses: [first, ...threat.responses.filter((response) => response !== first)], forks };
}
