import type { PlannerReply } from '../executor/planner.js';
import { HttpError } from './http-error.js';

/**
 * The failures a server without a planner holds for its HTTP clients (`serve --escalate-to-client`): a step that
 * failed past local repair waits, its plan with it, until a client sends the steps to run instead (POST
 * /api/plans/<planId>/replace), cancels the plan, or the hold's own time runs out. The MCP server's
 * `ClientEscalations` is one; the API reads a held failure as JSON and never looks inside beyond its step.
 */
export interface HeldEscalations {
  /** The plan's held failure: its step, code, detail, unmet expectations, evidence, and when the hold ends. */
  pending(planId: string): { stepId: string } | undefined;
  /** The plan's held failure now or when it comes; undefined when `signal` aborts first. */
  next(planId: string, signal: AbortSignal): Promise<{ stepId: string } | undefined>;
  /** Answers the plan's held failure; false when none is held. */
  answer(planId: string, reply: PlannerReply): boolean;
}

export function heldEscalations(escalations: HeldEscalations | undefined): HeldEscalations {
  if (!escalations)
    throw new HttpError(
      404,
      'this server holds no failure for its clients: a failed step ends its plan; start it with serve --escalate-to-client to answer failures with POST /api/plans/<planId>/replace',
    );
  return escalations;
}
