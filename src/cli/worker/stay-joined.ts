import type { Clock, TimerHandle } from '../../contracts/clock.js';
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
  let limit: TimerHandle | null = null;
  const rejoining = new Rejoining(first, {
    clock,
    join: (stop) => deps.join(bot, AbortSignal.any([stop, cancel])),
    onLost: (reason, since) => {
      say(
        `${bot}: the server went away (${reason}); joining again with backoff, its steps wait within their deadlines`,
      );
      limit = clock.setTimeout(() => deps.tooLong(Math.round(clock.now() - since)), deps.awayLimitMs);
    },
    onReplaced: (reason) => say(`${bot}: ${replacedLine(reason)}`),
    ...(deps.returning ? { returning: deps.returning } : {}),
    onRejoined: (awayMs, tries) => {
      if (limit) clock.clearTimeout(limit);
      say(`${bot}: back on the server after ${awayMs} ms away (${tries} tries); its world is read again`);
    },
  });
  const close = async () => {
    if (limit) clock.clearTimeout(limit);
    await rejoining.close();
  };
  return { opened: { ...first, world: rejoining.world, close }, rejoining };
}
