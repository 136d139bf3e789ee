import type pg from 'pg';

/** node-postgres's error for a query on a client whose connection already failed. */
const NOT_QUERYABLE = /not queryable/;

/**
 * Hears the error a checked-out client emits when the server drops its connection (the database stopped, the
 * network went, an administrator ended the session): the query in flight fails with it anyway, but unheard it is also
 * an uncaught exception, which would kill the process instead of failing the one write. `cause` names what a write on
 * the client failed for: a session ended between two statements fails the next one with node-postgres's "not
 * queryable", which hides why (the terminated session's 57P01 came first and is the reason). `stop` stops listening and
 * gives the error, if one came, so that the client is discarded at release rather than put back in the pool.
 */
export function watchDropped(client: pg.ClientBase): { cause(error: unknown): unknown; stop(): Error | undefined } {
  let dropped: Error | undefined;
  // The first is the reason; "Connection terminated unexpectedly" follows it as the socket closes.
  const listener = (error: Error) => (dropped ??= error);
  client.on('error', listener);
  return {
    cause: (error) =>
      dropped !== undefined && error !== dropped && NOT_QUERYABLE.test(String(error)) ? dropped : error,
    stop: () => {
      client.off('error', listener);
      return dropped;
    },
  };
}
