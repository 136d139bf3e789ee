import { Option } from 'commander';
import type { Clock } from '../contracts/clock.js';
import type { WorldPort } from '../contracts/world.js';
import type { Journal } from '../journal/journal.js';
import { recheckAfterRestart, type RecheckVerdicts } from '../journal/rollback.js';
import type { Fence } from '../journal/rows.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import type { Restart } from '../world/server-mark.js';
import { wholeIn } from './whole-number.js';
import { wallTimeOf } from './worker/outage.js';

/**
 * `--recheck-window-ms`, as `worker`, `serve` and `mcp` take it: how far back a bot checks its successes after a
 * restart of a server that does not say when it saved.
 */
export function recheckWindowOption(): Option {
  return new Option(
    '--recheck-window-ms <ms>',
    'after a server restart, how far back the bots check their successes against the world when the server does not say when it last saved (default: since each bot last connected)',
  ).argParser(wholeIn('--recheck-window-ms', 1_000, 86_400_000));
}

export interface AfterRestartDeps {
  journal: Journal;
  say: (line: string) => void;
  clock: Clock;
  /**
   * When (on `clock`) the bot last connected before the server went away: the window's start when no window is
   * configured. The journal's times are epoch ms: the window is turned into them (wallTimeOf), or on a monotonic
   * clock every success the bot ever had would fall in it.
   */
  connectedAt: number;
  /** How far back to check when the server does not say when it saved (default: since the bot last connected). */
  recheckWindowMs?: number;
  /** The capabilities the bot runs: each success is judged by its own capability's acceptance again. */
  registry?: CapabilityRegistry;
}

/**
 * The server a bot rejoined had restarted: every success of the bot's that the restart may have rolled back is
 * checked against the world that came back (recheckAfterRestart), each one found gone said in the log. null when the
 * check could not be made (the journal unreachable): said loudly, since its successes are then unconfirmed. A worker's
 * bot writes under its `fence`; a bot of `serve` or `mcp` holds none, and its plans are found by its `runnerId`.
 */
export async function recheckOnReturn(
  world: WorldPort,
  restart: Restart,
  who: { bot: string; fence?: Fence; runnerId?: string },
  deps: AfterRestartDeps,
): Promise<RecheckVerdicts | null> {
  const { say, journal } = deps;
  const { bot, fence, runnerId } = who;
  const now = wallTimeOf(deps.clock, deps.clock.now());
  const windowStart =
    deps.recheckWindowMs === undefined ? wallTimeOf(deps.clock, deps.connectedAt) : now - deps.recheckWindowMs;
  const since =
    restart.savedUpTo !== null
      ? `since its world was last saved (${new Date(restart.savedUpTo).toISOString()})`
      : `since ${new Date(windowStart).toISOString()} and of its plans under way`;
  say(`${bot}: the server restarted (${restart.evidence}); checking its successes ${since} against the world`);
  try {
    const verdicts = await recheckAfterRestart(journal, world, {
      bot,
      restart: restart.evidence,
      savedUpTo: restart.savedUpTo,
      windowStart,
      ...(fence ? { fence } : {}),
      ...(runnerId ? { runnerId } : {}),
      ...(deps.registry ? { registry: deps.registry } : {}),
    });
    for (const { planId, stepId, evidence } of verdicts.retracted)
      say(`plan ${planId} on ${bot}: step ${stepId} retracted: ${evidence}`);
    say(`${bot}: ${verdicts.retracted.length} retracted, ${verdicts.held.length} held after the restart`);
    return verdicts;
  } catch (error) {
    say(
      `${bot}: COULD NOT CHECK its successes after the server restarted: ${error instanceof Error ? error.message : String(error)}`,
    );
    return null;
  }
}

/** A bot's runs in this process, as `serve` and `mcp` keep them. */
export interface BotRuns {
  /** Its plans under way here, by plan id. */
  running: ReadonlyMap<string, { redo(why: string): boolean }>;
  /** The journal runner of its executor, once assembled: its plans are journaled without a bot, and found by it. */
  runnerId?: string;
}

/**
 * The `returning` hook of a bot of `serve` or `mcp` (Rejoining's): after a restart its successes are checked as a
 * worker's are (recheckOnReturn), and a plan of this process under way with a step found gone is stopped and resumed
 * in process to redo it (runResumable, under `run --resume`'s rules, as a worker resumes its plan from its queue): it
 * never ends ok over an effect the world no longer holds.
 */
export function recheckingOnReturn(
  bot: string,
  deps: {
    journal: Journal;
    clock: Clock;
    say: (line: string) => void;
    recheckWindowMs?: number;
    registry?: CapabilityRegistry;
    runs: BotRuns;
  },
): { returning: (world: WorldPort, restart: Restart | null) => Promise<void> } {
  let connectedAt = deps.clock.now();
  return {
    async returning(world, restart) {
      const since = connectedAt;
      connectedAt = deps.clock.now();
      if (!restart) return;
      const { runnerId, running } = deps.runs;
      const who = { bot, ...(runnerId ? { runnerId } : {}) };
      const verdicts = await recheckOnReturn(world, restart, who, { ...deps, connectedAt: since });
      for (const { planId, stepId, evidence } of verdicts?.retracted ?? [])
        running.get(planId)?.redo(`step ${stepId} was retracted: ${evidence}`);
    },
  };
}
