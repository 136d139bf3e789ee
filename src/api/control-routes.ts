import type { IncomingMessage } from 'node:http';
import type { ExecutionRun } from '../executor/executor.js';
import { requireBearer } from './auth.js';
import { readJsonBody } from './body.js';
import { HttpError } from './http-error.js';
import type { ApiContext, Reply } from './routes.js';

export const CONTROL_ACTIONS = ['pause', 'resume', 'cancel', 'replace'] as const;
export type ControlAction = (typeof CONTROL_ACTIONS)[number];

/** The plans this server started and that have not ended, by planId: what control endpoints act on. */
export class LiveRuns {
  private readonly runs = new Map<string, ExecutionRun>();

  add(planId: string, run: ExecutionRun): void {
    this.runs.set(planId, run);
    void run.result.finally(() => this.runs.get(planId) === run && this.runs.delete(planId)).catch(() => undefined);
  }

  get(planId: string): ExecutionRun | undefined {
    return this.runs.get(planId);
  }
}

/**
 * POST /api/plans/<planId>/<pause|resume|cancel|replace>, behind the token.
 * 404 when this server runs no such plan; 409 when the action changes nothing
 * (pausing a paused plan, resuming a running one); a replacement that does not
 * validate is a 422 naming each issue, and changes nothing.
 */
export async function control(
  ctx: ApiContext,
  live: LiveRuns,
  request: IncomingMessage,
  planId: string,
  action: string,
): Promise<Reply> {
  requireBearer(request, ctx.token);
  if (!(CONTROL_ACTIONS as readonly string[]).includes(action))
    throw new HttpError(404, `no control action "${action}": use ${CONTROL_ACTIONS.join(', ')}`);
  const body = (await readJsonBody(request, ctx.bodyLimit, { optional: true })) as
    { reason?: unknown; steps?: unknown } | undefined;
  const run = live.get(planId);
  if (!run)
    throw new HttpError(404, `this server is running no plan "${planId}"; GET /api/runs lists the journaled ones`);
  const reason = typeof body?.reason === 'string' ? body.reason.slice(0, 500) : 'operator (HTTP API)';
  const state = () => ({ success: true, planId, action });
  switch (action as ControlAction) {
    case 'pause':
      if (!run.pause(reason)) throw new HttpError(409, `plan "${planId}" is already paused or has ended`);
      return { status: 200, body: state() };
    case 'resume':
      if (!run.resume()) throw new HttpError(409, `plan "${planId}" is not paused`);
      return { status: 200, body: state() };
    case 'cancel':
      if (!run.cancel(reason)) throw new HttpError(409, `plan "${planId}" has already ended or been cancelled`);
      return { status: 200, body: state() };
    case 'replace': {
      if (!Array.isArray(body?.steps))
        throw new HttpError(
          400,
          'replace needs a body { "steps": [ …plan steps… ] } (an empty list ends the plan after its running step)',
        );
      const answer = run.replaceRemaining(body.steps);
      if (!answer.ok)
        throw new HttpError(
          422,
          `the replacement was refused: ${answer.issues.map((i) => `${i.where}: ${i.message}`).join('; ')}`,
          { issues: answer.issues },
        );
      return { status: 200, body: { ...state(), steps: answer.steps } };
    }
  }
}
