import type { JournaledAssembly } from '../journal/journaled-executor.js';
import { LocalBots, localBot, type LocalBot } from '../operations/bot-access.js';
import type { ViewerBot } from './viewer.js';

export type { BotSample } from '../operations/bot-access.js';

/** One bot the API serves: a bot of this process, and what the monitor draws of it. */
export interface ApiBot extends LocalBot {
  /** Its raw mineflayer bot, for a 3D view at /viewer/<id>/ (prismarine-viewer); none for SimWorld. */
  viewerBot?: ViewerBot;
}

/** A journaled assembly as an API bot; `run` defaults to the assembly's own. */
export function apiBot(
  id: string,
  assembly: JournaledAssembly,
  extra: Partial<Pick<ApiBot, 'viewerBot' | 'run'>> = {},
): ApiBot {
  return { ...localBot(id, assembly, extra.run), ...(extra.viewerBot ? { viewerBot: extra.viewerBot } : {}) };
}

/** The bots one API server serves, by name; the first answers requests that name none. */
export class Bots extends LocalBots<ApiBot> {
  /** The bot `?bot=<name>` names, else the first; none when no bot is attached. An unknown name is `not_found`, listing the names. */
  pick(query: URLSearchParams): ApiBot | undefined {
    return this.get(query.get('bot') ?? undefined);
  }
}
