import type { Clock } from '../../contracts/clock.js';
import type { WorldPort } from '../../contracts/world.js';
import { Rejoining, replacedLine } from '../../world/mineflayer/rejoining-world.js';
import type { Restart } from '../../world/server-mark.js';
import type { OpenedWorld } from '../open-world.js';

/** A server restart (a crash, an update) is back within seconds; one away for a minute is down. */
export const DEFAULT_AWAY_LIMIT_MS = 60_000;

export interface StayJoinedDeps {
  clock: Clock;
  say: (line: string) => void;
  /** Joins the server as the bot, until `cancel` aborts. */
  join: (bot: string, cancel: AbortSignal) => Promise<OpenedWorld>;
  /** How long the server may stay away before `tooLong` is told. */
  awayLimitMs: number;
  tooLong: (awayMs: number) => void;
  /** Awaited as the bot is back, before its steps go on: what a restart may have undone is checked there. */
  returning?: (world: WorldPort, restart: Restart | null) => Promise<void>;
}

/**
 * The bot's first session, kept joined: when the server goes away the bot joins again with backoff (Rejoining) until
 * `cancel` aborts or the world is closed, each outage and return said in the worker's log; a server away past
 * `awayLimitMs` is told to `tooLong` once per outage (the bot keeps trying meanwhile). The opened world it returns is
 * the first one's, with the world and its closing that outlive the session.
 */
export function stayJoined(
  first: OpenedWorld,
  bot: string,
  cancel: AbortSignal,
  deps: StayJoinedDeps,
): { opened: OpenedWorld; rejoining: Rejoining } {
  const { clock, say } = deps;
  let away: AwaySpell | null = null;
  const rejoining = new Rejoining(first, {
    clock,
    join: (stop) => deps.join(bot, AbortSignal.any([stop, cancel])),
    onLost: (reason, since) => {
      say(
        `${bot}: the server went away (${reason}); joining again with backoff, its steps wait within their deadlines`,
      );
      away = awaySpell(clock, since, deps.awayLimitMs, deps.tooLong);
    },
    onReplaced: (reason) => say(`${bot}: ${replacedLine(reason)}`),
    ...(deps.returning ? { returning: deps.returning } : {}),
    onRejoined: (awayMs, tries) => {
      away?.end();
      say(`${bot}: back on the server after ${awayMs} ms away (${tries} tries); its world is read again`);
    },
  });
  const close = async () => {
    away?.end();
    await rejoining.close();
  };
  return { opened: { ...first, world: rejoining.world, close }, rejoining };
}

/** One spell of the server away, since when (the clock's ms), under the away limit. */
export interface AwaySpell {
  readonly since: number;
  /** The server is back (or the bot given up): the limit no longer runs. */
  end(): void;
}

/**
 * The away limit over one spell: `tooLong` is told once, with how long the server was away, when it lasts `limitMs`.
 * A lost session and a first join the server refuses run the same limit: a server away from the start is as away.
 */
export function awaySpell(clock: Clock, since: number, limitMs: number, tooLong: (awayMs: number) => void): AwaySpell {
  const timer = clock.setTimeout(
    () => tooLong(Math.round(clock.now() - since)),
    Math.max(0, limitMs - (clock.now() - since)),
  );
  return { since, end: () => clock.clearTimeout(timer) };
}
