/**
 * What a bot's session learnt of the server it joined, so that a rejoin can tell a server that restarted (and may
 * have rolled its world back to its last save) from a connection that merely dropped.
 */
export interface ServerMark {
  /** The server process's own id, when it says one (verbtree's embedded world does: `SERVER_MARK_CHANNEL`). */
  server: string | null;
  /**
   * Up to when (epoch ms) the world it started from was saved: what it holds of the time before its start. null when
   * it does not say, or started from no save.
   */
  savedUpTo: number | null;
  /** The world's age in ticks as the server last sent it (0 or null from a server that does not count it). */
  age: number | null;
}

/** A restart seen across a rejoin: why it is one, and up to when the world that came back was saved, when known. */
export interface Restart {
  evidence: string;
  savedUpTo: number | null;
}

/**
 * The plugin channel on which verbtree's embedded world tells each player that logs in which server process it is
 * and up to when its world was saved (a JSON `{ server, savedUpTo }`). A vanilla server has no such thing: a client
 * judges it by the world's age (`restartBetween`).
 */
export const SERVER_MARK_CHANNEL = 'verbtree:server_mark';

/**
 * Whether the server restarted between two sessions: another server process (when both say which), or the world's
 * age going back (a server's age only grows while it runs, and a restarted one resumes from its last save's). A
 * server that says neither is taken to be the same: nothing to retract without a sign of a rollback.
 */
export function restartBetween(before: ServerMark, after: ServerMark): Restart | null {
  if (before.server !== null && after.server !== null)
    return before.server === after.server
      ? null
      : {
          evidence: `the server is another process (${before.server}, now ${after.server})`,
          savedUpTo: after.savedUpTo,
        };
  if (before.age !== null && after.age !== null && after.age < before.age)
    return { evidence: `the world's age went back from ${before.age} to ${after.age} ticks`, savedUpTo: null };
  return null;
}

/** The mark a client reads from the channel's payload; null for a payload that is not one. */
export function parseServerMark(data: Buffer): Pick<ServerMark, 'server' | 'savedUpTo'> | null {
  try {
    const parsed = JSON.parse(data.toString('utf8')) as { server?: unknown; savedUpTo?: unknown };
    if (typeof parsed.server !== 'string') return null;
    return { server: parsed.server, savedUpTo: typeof parsed.savedUpTo === 'number' ? parsed.savedUpTo : null };
  } catch {
    return null;
  }
}
