import { z } from 'zod';
import { INPUT_LIMITS } from '../contracts/limits.js';
import { Plan } from '../contracts/plan.js';
import { PlanStep } from '../contracts/plan-step.js';
import type { AnyCapabilitySpec } from '../registry/capability-spec.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { findHostileInput } from './hostile.js';
import { type ValidationIssue, issueAt } from './issue.js';
import { declaredKeys, fromZodIssues } from './zod-issues.js';

/** A step that passed V1 and V2 (docs/contract.md): its capability is resolved and its arguments parsed. */
export interface ResolvedStep {
  step: PlanStep;
  spec: AnyCapabilitySpec;
  args: unknown;
}

export type ValidationReport =
  | { ok: true; plan: Plan; steps: ResolvedStep[]; warnings: ValidationIssue[] }
  | { ok: false; issues: ValidationIssue[]; warnings: ValidationIssue[] };

const PlanEnvelope = Plan.extend({
  steps: z
    .array(z.unknown())
    .min(1, 'a plan needs at least one step; an empty plan has nothing to verify')
    .max(INPUT_LIMITS.maxSteps),
});

/**
 * Checks a whole plan (V1 verbs, V2 arguments, and static checks) and returns
 * every problem, never just the first. Never throws, whatever the input.
 */
export function validatePlan(input: unknown, registry: CapabilityRegistry): ValidationReport {
  try {
    return check(input, registry);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      issues: [issueAt('schema_violation', [], `the plan could not be checked: ${reason}`)],
      warnings: [],
    };
  }
}

function check(input: unknown, registry: CapabilityRegistry): ValidationReport {
  const hostile = findHostileInput(input);
  if (hostile.length > 0) return { ok: false, issues: hostile, warnings: [] };

  const envelope = PlanEnvelope.safeParse(input);
  if (!envelope.success) {
    return {
      ok: false,
      issues: fromZodIssues(envelope.error.issues, input, [], (p) => declaredKeys(PlanEnvelope, p)),
      warnings: [],
    };
  }

  const issues: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  const steps: ResolvedStep[] = [];
  const firstIndexOfId = new Map<string, number>();

  envelope.data.steps.forEach((raw, index) => {
    const parsed = PlanStep.safeParse(raw);
    if (!parsed.success) {
      const located = fromZodIssues(parsed.error.issues, raw, ['steps', index], (p) => declaredKeys(PlanStep, p));
      const stepId = stepIdOf(raw);
      issues.push(...located.map((issue) => (stepId ? { ...issue, stepId } : issue)));
      return;
    }
    const step = parsed.data;
    const at = (issue: ValidationIssue): ValidationIssue => ({ ...issue, stepId: step.stepId });

    const earlier = firstIndexOfId.get(step.stepId);
    if (earlier !== undefined) {
      issues.push(
        at(
          issueAt(
            'schema_violation',
            ['steps', index, 'stepId'],
            `duplicate stepId "${step.stepId}" (also used by steps[${earlier}]); give every step a unique stepId`,
          ),
        ),
      );
    } else {
      firstIndexOfId.set(step.stepId, index);
    }

    const resolution = registry.resolve(step.type, step.version);
    if (!resolution.ok) {
      const path = resolution.code === 'unknown_verb' ? ['steps', index, 'type'] : ['steps', index, 'version'];
      const suggestion = resolution.code === 'unknown_verb' ? resolution.suggestion : undefined;
      issues.push(at(issueAt(resolution.code, path, resolution.message, suggestion ? { suggestion } : {})));
      return;
    }
    for (const warning of resolution.warnings)
      warnings.push(at(issueAt('version_unsatisfied', ['steps', index, 'type'], warning)));

    const args = resolution.spec.inputSchema.safeParse(step.args);
    if (!args.success) {
      const keysAt = (p: readonly PropertyKey[]) => declaredKeys(resolution.spec.inputSchema, p);
      issues.push(...fromZodIssues(args.error.issues, step.args, ['steps', index, 'args'], keysAt).map(at));
      return;
    }
    steps.push({ step, spec: resolution.spec, args: args.data });
  });

  if (issues.length > 0) return { ok: false, issues, warnings };
  return { ok: true, plan: { ...envelope.data, steps: steps.map((s) => s.step) }, steps, warnings };
}

function stepIdOf(raw: unknown): string | undefined {
  if (raw && typeof raw === 'object' && typeof (raw as { stepId?: unknown }).stepId === 'string') {
    return (raw as { stepId: string }).stepId;
  }
  return undefined;
}
