import type { ValidationIssue } from '../validate/issue.js';

/** Issues a rejected plan's summary keeps. */
const MAX_ISSUES = 20;

/**
 * What the journal keeps of a plan the executor refuses: its ids, how many
 * steps it had, and its first issues; never the plan itself, which may be
 * arbitrarily large (the API takes bodies of many megabytes).
 */
export function rejectedPlanSummary(
  input: { planId: string; intentId: string; steps?: unknown },
  issues: readonly ValidationIssue[],
): Record<string, unknown> {
  return {
    planId: input.planId,
    intentId: input.intentId,
    rejected: true,
    steps: Array.isArray(input.steps) ? input.steps.length : null,
    issues: issues.slice(0, MAX_ISSUES).map((issue) => ({ ...issue, message: issue.message.slice(0, 500) })),
    moreIssues: Math.max(0, issues.length - MAX_ISSUES),
  };
}
