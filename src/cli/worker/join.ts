import type { Clock } from '../../contracts/clock.js';
import { openWorld, type OpenedWorld, type WorldChoice } from '../open-world.js';
import { sleep } from './timing.js';

/** flying-squid refuses a login under a name whose session it still holds; a vanilla server kicks the old one. */
const OLD_SESSION = /already connected/i;
/**
 * A login the server took but did not finish within the spawn timeout: a loaded machine (issue 34: beside a CPU hog,
 * a join took past 15 s, and the bot was given up and claimed again). Joined again, the bot stays its worker's.
 */
const SLOW_SPAWN = /no spawn within/i;

/**
 * A connection the game server's address refused or never answered: the server is away (restarting, not yet
 * started), not the bot's fault. The journal's own refusals never reach a join.
 */
const SERVER_AWAY = /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EAI_AGAIN/;
/** The first wait before trying a server that is away again, doubled after each refusal up to `retryEveryMs`. */
const FIRST_WAIT_MS = 250;

/**
 * Joins the server as `bot` the way `run --host` does (the remote world of the table of worlds), retrying every
 * `retryEveryMs` while the server still holds the bot's old session (a worker that died or was cut off leaves it
 * until the server notices) or its spawn came too late, until `cancel` aborts, each try in its turn at `gate` when
 * one is given. A server that refuses the connection is away: the bot waits for it with backoff (up to
 * `retryEveryMs`), told to `waiting` (its status line, then null once joined), and joins when it comes. Any other
 * refusal is the caller's.
 */
export async function joinAsBot(
  choice: WorldChoice,
  bot: string,
  options: {
    clock: Clock;
    retryEveryMs: number;
    cancel: AbortSignal;
    gate?: JoinGate;
    say(line: string): void;
    waiting?(status: string | null): void;
  },
): Promise<OpenedWorld> {
  const open = () => openWorld({ ...choice, username: bot });
  const where = `the game server at ${choice.host ?? 'localhost'}:${choice.port ?? 25565}`;
  let awayWait = 0;
  for (let tries = 1; ; tries++) {
    try {
      // Each try takes its turn at the gate: a bot waiting for its old session to go holds no turn.
      const joined = await (options.gate ? options.gate.run(open, options.cancel) : open());
      if (awayWait > 0) options.waiting?.(null);
      return joined;
    } catch (error) {
      if (options.cancel.aborted || !(error instanceof Error)) throw error;
      let waitMs = options.retryEveryMs;
      if (SERVER_AWAY.test(error.message)) {
        if (awayWait === 0) {
          options.say(`${bot}: waiting for ${where} (${error.message}); joining when it comes, with backoff`);
          options.waiting?.(`waiting for ${where}`);
        }
        awayWait = Math.min(awayWait === 0 ? FIRST_WAIT_MS : awayWait * 2, options.retryEveryMs);
        waitMs = awayWait;
      } else if (SLOW_SPAWN.test(error.message)) options.say(`${bot}: ${error.message}: joining again`);
      else if (!OLD_SESSION.test(error.message)) throw error;
      else if (tries === 1)
        options.say(`${bot}: the server still holds its old session; logging in again until it is gone`);
      await sleep(options.clock, waitMs, options.cancel);
      if (options.cancel.aborted) throw error;
    }
  }
}

/**
 * At most `limit` joins in flight at once, the rest waiting their turn in order. A login is the costliest moment of a
 * bot's life on both ends (the server sends it every chunk in view, the client parses them): 150 bots joining at once
 * on one worker all ran past their spawn timeout, each failure fenced its bot and the next claim joined it again,
 * a storm that kept a third of them out (`npm run bench -- fleet --bots 150`). A join counts its timeout from its
 * turn, not from its wait.
 */
export class JoinGate {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`a join gate needs a limit of 1 or more, got ${limit}`);
  }

  /** Runs `join` in its turn; rejects with the abort's reason, without joining, when `cancel` aborts while it waits. */
  async run<T>(join: () => Promise<T>, cancel: AbortSignal): Promise<T> {
    await this.turn(cancel);
    try {
      return await join();
    } finally {
      this.inFlight--;
      this.waiting.shift()?.();
    }
  }

  private turn(cancel: AbortSignal): Promise<void> {
    if (cancel.aborted) return Promise.reject(cancelled(cancel));
    if (this.inFlight < this.limit) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const go = () => {
        cancel.removeEventListener('abort', leave);
        this.inFlight++;
        resolve();
      };
      const leave = () => {
        this.waiting.splice(this.waiting.indexOf(go), 1);
        reject(cancelled(cancel));
      };
      this.waiting.push(go);
      cancel.addEventListener('abort', leave, { once: true });
    });
  }
}

const cancelled = (cancel: AbortSignal) =>
  cancel.reason instanceof Error ? cancel.reason : new Error('the join was cancelled before its turn');
