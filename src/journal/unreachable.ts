/*
 * Whether an error from the journal means its database could not be reached (PostgreSQL stopped, restarting, or cut
 * off by the network), as opposed to a refusal or a bug: what a caller then says is "the journal was unreachable",
 * and a request may be tried again later (HTTP 503).
 */

/** Node's socket errors for a server that is down or cannot be reached. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** PostgreSQL's own: class 08 (connection exception) and the server shutting down or starting up (57P01-57P03). */
const SQLSTATE = /^(08|57P0[123])/;

/** node-postgres's words for a connection that ended or never came. */
const CLIENT_WORDS = /connection terminated|connection timeout|timeout expired|not queryable/i;

/** The reason the journal's database was unreachable, from the error its client threw; null for any other error. */
export function journalUnreachable(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const { code } = error as { code?: unknown };
  const reached =
    (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATE.test(code))) || CLIENT_WORDS.test(error.message);
  // AggregateError (a host with several addresses, each refused) carries the codes on its parts.
  if (!reached && error instanceof AggregateError)
    return error.errors.map(journalUnreachable).find((reason) => reason !== null) ?? null;
  return reached ? error.message || String(code) : null;
}
