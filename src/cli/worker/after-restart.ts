import type { WorldPort } from '../../contracts/world.js';
import type { Journal } from '../../journal/journal.js';
import { recheckAfterRestart, type RecheckVerdicts } from '../../journal/rollback.js';
import type { Fence } from '../../journal/rows.js';
import type { Restart } from '../../world/server-mark.js';

export interface AfterRestartDeps {
  journal: Journal;
  say: (line: string) => void;
  /** When the bot last connected before the server went away: the window's start when no window is configured. */
  connectedAt: number;
  now: number;
  /** How far back to check when the server does not say when it saved (default: since the bot last connected). */
  recheckWindowMs?: number;
}

/**
 * The server a bot rejoined had restarted: every success of the bot's that the restart may have rolled back is
 * checked against the world that came back (recheckAfterRestart), each one found gone said in the worker's log. null
 * when the check could not be made (the journal unreachable): said loudly, since its successes are then unconfirmed.
 */
export async function recheckOnReturn(
  world: WorldPort,
  restart: Restart,
  fence: Fence,
  deps: AfterRestartDeps,
): Promise<RecheckVerdicts | null> {
  const { say, journal } = deps;
  const windowStart = deps.recheckWindowMs === undefined ? deps.connectedAt : deps.now - deps.recheckWindowMs;
  const since =
    restart.savedUpTo !== null
      ? `since its world was last saved (${new Date(restart.savedUpTo).toISOString()})`
      : `since ${new Date(windowStart).toISOString()} and of its plans under way`;
  say(`${fence.bot}: the server restarted (${restart.evidence}); checking its successes ${since} against the world`);
  try {
    const verdicts = await recheckAfterRestart(journal, world, {
      bot: fence.bot,
      restart: restart.evidence,
      savedUpTo: restart.savedUpTo,
      windowStart,
      fence,
    });
    for (const { planId, stepId, evidence } of verdicts.retracted)
      say(`plan ${planId} on ${fence.bot}: step ${stepId} retracted: ${evidence}`);
    say(`${fence.bot}: ${verdicts.retracted.length} retracted, ${verdicts.held.length} held after the restart`);
    return verdicts;
  } catch (error) {
    say(
      `${fence.bot}: COULD NOT CHECK its successes after the server restarted: ${error instanceof Error ? error.message : String(error)}`,
    );
    return null;
  }
}
