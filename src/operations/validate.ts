import type { CapabilityRegistry } from '../registry/registry.js';
import type { ValidationIssue } from '../validate/issue.js';
import { validatePlan } from '../validate/validate-plan.js';

/** A plan checked as a run would check it: every issue with its path, code and fix, or the steps as they would run. */
export type ValidationAnswer =
  | {
      ok: true;
      planId: string;
      /** Each step with the version it resolved to and its arguments as parsed (defaults filled in). */
      steps: { stepId: string; type: string; version: string; args: unknown }[];
      warnings: ValidationIssue[];
    }
  | { ok: false; issues: ValidationIssue[]; warnings: ValidationIssue[] };

/** Checks a plan without running it: nothing moves, nothing is journaled. */
export function validate(registry: CapabilityRegistry, input: unknown): ValidationAnswer {
  const report = validatePlan(input, registry);
  if (!report.ok) return { ok: false, issues: report.issues, warnings: report.warnings };
  return {
    ok: true,
    planId: report.plan.planId,
    steps: report.steps.map(({ step, spec, args }) => ({
      stepId: step.stepId,
      type: spec.name,
      version: spec.version,
      args,
    })),
    warnings: report.warnings,
  };
}
