import { z } from 'zod';
import { inventoryTotal, unmetExpectation, type Expectation } from '../contracts/expectation.js';
import type { Observation, Vec3Like, WorldPort } from '../contracts/world.js';

/*
 * Branch exploration (issue 33 §2): when a step's local repair is spent, several ways out are tried on copies of the
 * world at once, each scored by how far it got toward the step's own expectations and what it cost, and the best
 * one runs for real. This file holds the plain parts: the candidates, the score and the choice. The forks that try
 * them live in src/foresight (the executor is handed a BranchExplorer, so it never imports them).
 */

const ms = z.number().int('must be a whole number of milliseconds').min(1, 'must be at least 1 ms');

/** The branch stage's part of the recovery configuration: off unless enabled, and always bounded. */
export const BranchConfigSchema = z.strictObject({
  /** Branch exploration runs only where the executor has an explorer and this is on. */
  enabled: z.boolean().default(false),
  /** K: at most this many candidates are tried, in the order they are gathered. */
  count: z.number().int('must be a whole number').min(1, 'must be at least 1').max(16, 'must be at most 16').default(4),
  /** Simulated time a branch may run on its fork. */
  simBudgetMs: ms.default(60_000),
  /** Real time a branch's fork may take, loading its thread included. */
  wallBudgetMs: ms.default(20_000),
  /** Real time the whole stage may take: no branch starts once it is spent. */
  totalBudgetMs: ms.default(45_000),
});
export type BranchConfig = z.infer<typeof BranchConfigSchema>;

/** One step a branch takes: a canonical verb and its arguments. */
export interface BranchStep {
  verb: string;
  args: Record<string, unknown>;
}

/**
 * Where a candidate came from: an untried rung of the ladder with its parameters, another recipe, the planner, or a
 * safety response.
 */
export type BranchSource =
  'repath' | 'pillar' | 'tunnel' | 'bridge' | 'another_block' | 'recipe' | 'planner' | 'safety';

/** A way out to try: its steps, then (when `thenStep`) the stuck step itself again. */
export interface BranchCandidate {
  /** Unique within one exploration, e.g. "pillar:2". */
  id: string;
  source: BranchSource;
  /** What it does, for people: "pillar up 2, then the step". */
  label: string;
  steps: BranchStep[];
  thenStep: boolean;
}

/** How a branch went on its fork, as the score needs it. */
export interface BranchTrial {
  outcome: 'ok' | 'failed' | 'sim_budget' | 'wall_budget' | 'crashed' | 'skipped';
  /** 0 to 1: the share of the step's expectations met on the fork, with partial credit (see branchProgress). */
  progress: number;
  simulatedMs: number;
  /** Health lost on the fork. */
  damage: number;
  /** Items the pack lost on the fork (blocks placed, ingredients used). */
  spent: number;
  /** Reads of cells the bot had not seen. */
  unknownTouches: number;
  detail?: string;
}

/** A candidate with its trial and score; `score` is null when the branch does not score (no progress, or cut off). */
export interface ScoredBranch {
  candidate: BranchCandidate;
  trial: BranchTrial;
  score: number | null;
}

/** What the executor hands the explorer. */
export interface BranchRequest {
  /** The real world: read (captured) only, never acted on. */
  world: WorldPort;
  candidates: readonly BranchCandidate[];
  /** The stuck step, run again at the end of a `thenStep` candidate. */
  step: BranchStep;
  /** The stuck step's expectations as fixed at its dispatch: each branch is judged by them on its fork. */
  judgeBy: readonly Expectation[];
  config: BranchConfig;
  /** How much of the world the forks copy, when the explorer's own bounds are not enough (a flight's way out). */
  view?: { radius: number; height: number };
}

/** Tries candidates on copies of the world (src/foresight's forkExplorer); never acts on the world it is given. */
export interface BranchExplorer {
  explore(request: BranchRequest): Promise<ScoredBranch[]>;
}

/*
 * The cost of a branch, in the same unit as progress (a whole step's worth is 1): taking its whole simulated budget
 * costs 0.3, a full health bar 0.5, each item spent 0.02, and leaning on unseen cells up to 0.2 (50 reads or more).
 */
const COST_OF_WHOLE_BUDGET = 0.3;
const COST_OF_FULL_HEALTH = 0.5;
const FULL_HEALTH = 20;
const COST_PER_ITEM = 0.02;
const COST_OF_UNKNOWN = 0.2;
const UNKNOWN_READS_AT_FULL_COST = 50;
/** Partial progress never counts as much as a met expectation. */
const PARTIAL_CAP = 0.9;

/** A branch scores when it made progress and its progress outweighs its cost; cut-off forks never score. */
export function scoreBranch(trial: BranchTrial, config: Pick<BranchConfig, 'simBudgetMs'>): number | null {
  if (trial.outcome === 'wall_budget' || trial.outcome === 'crashed' || trial.outcome === 'skipped') return null;
  if (trial.progress <= 0) return null;
  const cost =
    COST_OF_WHOLE_BUDGET * Math.min(1, trial.simulatedMs / config.simBudgetMs) +
    COST_OF_FULL_HEALTH * Math.min(1, trial.damage / FULL_HEALTH) +
    COST_PER_ITEM * trial.spent +
    COST_OF_UNKNOWN * Math.min(1, trial.unknownTouches / UNKNOWN_READS_AT_FULL_COST);
  const score = trial.progress - cost;
  return score > 0 ? Math.round(score * 1000) / 1000 : null;
}

/** The best-scored branch (the earliest gathered among equals), or null when none scores. */
export function chooseBranch(scored: readonly ScoredBranch[]): ScoredBranch | null {
  let best: ScoredBranch | null = null;
  for (const branch of scored)
    if (branch.score !== null && (best === null || branch.score > best.score!)) best = branch;
  return best;
}

const clamp01 = (value: number) => Math.max(0, Math.min(1, value));

function goalPoint(e: Extract<Expectation, { kind: 'position' }>, fallbackY: number): Vec3Like {
  const { goal } = e;
  return { x: goal.x + 0.5, y: goal.kind === 'xz' ? fallbackY : goal.y, z: goal.z + 0.5 };
}

const distance = (a: Vec3Like, b: Vec3Like) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

/** How far one expectation came from `before` to `after`: 1 when met, else partial credit for distance or count. */
function expectationProgress(e: Expectation, before: Observation, after: Observation): number {
  if (unmetExpectation(e, after) === null) return 1;
  let share = 0;
  if (e.kind === 'position') {
    const goal = goalPoint(e, after.position.y);
    const start = distance(before.position, goal);
    share = start > 0 ? (start - distance(after.position, goal)) / start : 0;
  } else if (e.kind === 'inventory' && e.atLeast !== undefined) {
    const had = before.inventory[e.item] ?? 0;
    share = e.atLeast > had ? ((after.inventory[e.item] ?? 0) - had) / (e.atLeast - had) : 0;
  } else if (e.kind === 'inventory_total') {
    const had = inventoryTotal(before.inventory, e.items);
    share = e.atLeast > had ? (inventoryTotal(after.inventory, e.items) - had) / (e.atLeast - had) : 0;
  } else if (e.kind === 'height') {
    share =
      e.atLeast > before.position.y ? (after.position.y - before.position.y) / (e.atLeast - before.position.y) : 0;
  }
  return Math.min(PARTIAL_CAP, clamp01(share));
}

/**
 * The progress a branch made toward the step's expectations, 0 to 1: their mean, each 1 when met on the fork and
 * otherwise credited (below 1) for the distance closed or the items gained since the fork began. No expectations:
 * 1 when the branch ended ok, else 0.
 */
export function branchProgress(
  judgeBy: readonly Expectation[],
  before: Observation,
  after: Observation,
  ok: boolean,
): number {
  if (judgeBy.length === 0) return ok ? 1 : 0;
  const total = judgeBy.reduce((sum, e) => sum + expectationProgress(e, before, after), 0);
  return Math.round((total / judgeBy.length) * 1000) / 1000;
}

/** Items the pack lost between two observations, all kinds together. */
export function itemsSpent(before: Observation, after: Observation): number {
  let spent = 0;
  for (const [item, count] of Object.entries(before.inventory))
    spent += Math.max(0, count - (after.inventory[item] ?? 0));
  return spent;
}

/** One line per branch for events, the journal and `show`: "pillar up 2, then the step: 0.82 (chosen)". */
export function describeBranches(scored: readonly ScoredBranch[], chosen: ScoredBranch | null): string {
  return scored
    .map((branch) => {
      const { trial } = branch;
      const how =
        branch.score === null
          ? `no score (${trial.outcome}${trial.detail ? `: ${trial.detail}` : ''}; progress ${trial.progress})`
          : `score ${branch.score} (progress ${trial.progress}, ${Math.round(trial.simulatedMs)} ms simulated)`;
      return `${branch.candidate.label}: ${how}${branch === chosen ? ' ← chosen' : ''}`;
    })
    .join('; ');
}
