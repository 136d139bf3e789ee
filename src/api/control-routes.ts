import type { IncomingMessage } from 'node:http';
import { CONTROL_ACTIONS, type ControlAction, type ControlAnswer } from '../operations/runs.js';
import { requireBearer } from './auth.js';
import { readJsonBody } from './body.js';
import { HttpError } from './http-error.js';
import type { ApiContext, Reply } from './routes.js';

/**
 * POST /api/plans/<planId>/<pause|resume|cancel|replace>, behind the token.
 * 404 when this server runs no such plan; 409 when the action changes nothing
 * (pausing a paused plan, resuming a running one); a replacement that does not
 * validate is a 422 naming each issue, and changes nothing.
 */
export async function control(
  ctx: ApiContext,
  request: IncomingMessage,
  planId: string,
  action: string,
): Promise<Reply> {
  requireBearer(request, ctx.token);
  if (!(CONTROL_ACTIONS as readonly string[]).includes(action))
    throw new HttpError(404, `no control action "${action}": use ${CONTROL_ACTIONS.join(', ')}`);
  const body = (await readJsonBody(request, ctx.bodyLimit, { optional: true })) as
    { reason?: unknown; steps?: unknown } | undefined;
  const reason = typeof body?.reason === 'string' ? body.reason : 'operator (HTTP API)';
  const answer = await act(ctx, planId, action as ControlAction, reason, body?.steps);
  return { status: 200, body: { success: true, ...answer } };
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
