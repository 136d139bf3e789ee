/** A plan's steps as the journal's provenance gives them (GET /api/runs/<planId>). */

/**
 * A sub-goal's id without its parent's prefix ("craft/subgoal-x" under "craft" reads "subgoal-x"): it is drawn under
 * its parent.
 */
export const shortStepId = (stepId: string, parent: string | null | undefined) =>
  parent && stepId.startsWith(`${parent}/`) ? stepId.slice(parent.length + 1) : stepId;

export interface StepRow {
  step: { step_id: string; verb: string; parent_step_id: string | null };
  transitions: { to_status: string; at: number; reason: string | null }[];
}

/**
 * Steps in plan order, each sub-goal right under the step it serves (the journal keeps them in the order they were
 * added).
 */
export function nested(steps: readonly StepRow[]): StepRow[] {
  const children = new Map<string | null, StepRow[]>();
  for (const s of steps) children.set(s.step.parent_step_id, [...(children.get(s.step.parent_step_id) ?? []), s]);
  const ids = new Set(steps.map((s) => s.step.step_id));
  const out: StepRow[] = [];
  const visit = (s: StepRow) => (out.push(s), (children.get(s.step.step_id) ?? []).forEach(visit));
  // Roots: no parent, or a parent not on this page.
  steps.filter((s) => s.step.parent_step_id === null || !ids.has(s.step.parent_step_id)).forEach(visit);
  return out;
}
