import type { Clock } from '../../contracts/clock.js';
import { openWorld, type OpenedWorld, type WorldChoice } from '../open-world.js';
import { sleep } from './timing.js';

/** flying-squid refuses a login under a name whose session it still holds; a vanilla server kicks the old one. */
const OLD_SESSION = /already connected/i;

/**
 * Joins the server as `bot` the way `run --host` does (the remote world of the table of worlds), retrying every
 * `retryEveryMs` while the server still holds the bot's old session (a worker that died or was cut off leaves it
 * until the server notices), until `cancel` aborts. Any other refusal is the caller's.
 */
export async function joinAsBot(
  choice: WorldChoice,
  bot: string,
  options: { clock: Clock; retryEveryMs: number; cancel: AbortSignal; say(line: string): void },
): Promise<OpenedWorld> {
  for (let tries = 1; ; tries++) {
    try {
      return await openWorld({ ...choice, username: bot });
    } catch (error) {
      if (options.cancel.aborted || !(error instanceof Error) || !OLD_SESSION.test(error.message)) throw error;
      if (tries === 1) options.say(`${bot}: the server still holds its old session; logging in again until it is gone`);
      await sleep(options.clock, options.retryEveryMs, options.cancel);
      if (options.cancel.aborted) throw error;
    }
  }
}
