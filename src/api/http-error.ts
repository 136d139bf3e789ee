import type { OperationError, OperationErrorKind, OperationName } from '../operations/errors.js';

/** A request the API refuses: its status and a message that says what to fix. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** Response headers the refusal carries (Retry-After on a 503). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** How HTTP answers each kind of refusal. */
const STATUS_OF: Record<OperationErrorKind, number> = {
  invalid: 400,
  not_found: 404,
  conflict: 409,
  rejected: 422,
  unavailable: 503,
};

/** The routes that show what exists, which a refusal's message points to. */
const ROUTE_OF: Record<OperationName, string> = { listBots: 'GET /api/bots', listRuns: 'GET /api/runs' };

/** An operation's refusal as HTTP answers it: the kind's status, the message with the route to look at, the issues or bots. */
export function httpErrorOf(error: OperationError): HttpError {
  const { see, issues, bots, retryAfterSeconds } = error.details;
  // A dependency that is down (503) says when to ask again: the operation's estimate, else a second.
  const retryAfter = error.kind === 'unavailable' ? String(Number(retryAfterSeconds ?? 1)) : undefined;
  return new HttpError(
    STATUS_OF[error.kind],
    see ? `${error.message} (${ROUTE_OF[see]})` : error.message,
    {
      ...(issues ? { issues } : {}),
      // The names a refusal about a bot offers instead (an unknown bot's 404), for a client to pick from.
      ...(Array.isArray(bots) ? { bots } : {}),
    },
    retryAfter ? { 'retry-after': retryAfter } : {},
  );
}
