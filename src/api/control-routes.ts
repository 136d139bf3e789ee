import type { PlanStepInput } from '../contracts/plan-step.js';
import type { ControlAction, ControlAnswer } from '../operations/runs.js';
import type { ApiContext, Reply } from './routes.js';

/**
 * POST /api/plans/<planId>/<pause|resume|cancel|replace>, behind the token (the router checks it).
 * 404 when this server runs no such plan; 409 when the action changes nothing
 * (pausing a paused plan, resuming a running one); a replacement that does not
 * validate is a 422 naming each issue, and changes nothing. A replace of a plan whose failure is held
 * (serve --escalate-to-client) answers the hold: `escalationAnswered: true`.
 */
export async function control(ctx: ApiContext, planId: string, action: ControlAction, json: unknown): Promise<Reply> {
  const body = json as { reason?: unknown; steps?: unknown } | undefined;
  const reason = typeof body?.reason === 'string' ? body.reason : 'operator (HTTP API)';
  const held = ctx.escalations?.pending(planId);
  const answer = await act(ctx, planId, action, reason, body?.steps);
  // A held failure (serve --escalate-to-client) is answered by the same calls: the replacement runs instead of the
  // failed step, a cancel ends the hold with the plan. Checked by replaceRemaining first, as any replacement is.
  const escalationAnswered =
    held !== undefined && action === 'replace'
      ? ctx.escalations!.answer(planId, { steps: body?.steps as PlanStepInput[] })
      : undefined;
  return { status: 200, body: { success: true, ...answer, ...(escalationAnswered ? { escalationAnswered } : {}) } };
}

function act(
  ctx: ApiContext,
  planId: string,
  action: ControlAction,
  reason: string,
  steps: unknown,
): Promise<ControlAnswer> {
  switch (action) {
    case 'pause':
      return ctx.ops.pause(planId, reason);
    case 'resume':
      return ctx.ops.resume(planId);
    case 'cancel':
      return ctx.ops.cancel(planId, reason);
    case 'replace':
      return ctx.ops.replaceRemaining(planId, steps);
  }
}
