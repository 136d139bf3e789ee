import type { RecoveryConfig } from './config.js';

/** The shape of a plan this detector reads: its steps' verbs and arguments. */
export interface PlanLike {
  steps: ReadonlyArray<{ type: string; args?: Record<string, unknown> }>;
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${key}:${stable(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * A plan's signature: the set of its verbs plus one `verb.key=value` token per
 * argument. Order and repetition do not matter; a changed coordinate changes
 * one token, not the whole step, so near-identical plans score high.
 */
export function planSignature(plan: PlanLike): Set<string> {
  const tokens = new Set<string>();
  for (const step of plan.steps) {
    tokens.add(step.type);
    for (const [key, value] of Object.entries(step.args ?? {})) tokens.add(`${step.type}.${key}=${stable(value)}`);
  }
  return tokens;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const token of a) if (b.has(token)) shared += 1;
  return shared / (a.size + b.size - shared);
}

export interface PlannerLoopFlag {
  readonly code: 'planner.loop';
  /** Similarity to each of the last failed plans compared, newest first. */
  readonly similarities: readonly number[];
  readonly threshold: number;
  /** Control text to prepend to the planner's next request; not for end users. */
  readonly nudge: string;
}

interface FailedPlan {
  signature: Set<string>;
  reason: string;
}

/**
 * A loop guard for planners: a new plan at least `threshold` similar (Jaccard,
 * over its verbs and arguments) to each of the last `window` failed plans is the
 * planner looping (docs/contract.md, "The recovery ladder's defaults").
 */
export class PlannerLoopDetector {
  private readonly failed: FailedPlan[] = [];

  constructor(private readonly config: RecoveryConfig['plannerLoop']) {}

  recordFailed(plan: PlanLike, reason: string): void {
    this.failed.push({ signature: planSignature(plan), reason });
    if (this.failed.length > this.config.maxHistory) this.failed.shift();
  }

  /** Call after a confirmed change of goal, so old failures stop counting. */
  reset(): void {
    this.failed.length = 0;
  }

  check(plan: PlanLike): PlannerLoopFlag | null {
    const { window, similarityThreshold } = this.config;
    if (this.failed.length < window) return null;
    const signature = planSignature(plan);
    const recent = this.failed.slice(-window).reverse();
    const similarities = recent.map((failed) => Math.round(jaccard(signature, failed.signature) * 1_000) / 1_000);
    if (similarities.some((similarity) => similarity < similarityThreshold)) return null;
    const reasons = recent.map((failed, i) => `  ${i + 1}. ${failed.reason}`).join('\n');
    const nudge = [
      '<planner-loop>',
      `SELF-REFLECTION: loop detected. This plan is ${similarities.join(', ')} similar (threshold ${similarityThreshold}) to each of the last ${window} plans, which all failed:`,
      reasons,
      'Do not submit the same approach again. Propose a materially different plan (other verbs, another target or route, or a sub-goal that removes the obstacle), or report the goal as unreachable.',
      '</planner-loop>',
    ].join('\n');
    return { code: 'planner.loop', similarities, threshold: similarityThreshold, nudge };
  }
}
