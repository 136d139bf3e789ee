import type { WorldPort } from '../contracts/world.js';
import type { ExecutorEvent } from '../executor/events.js';
import type { Executor, ExecutionRun, RunInput } from '../executor/executor.js';
import type { JournaledAssembly } from '../journal/journaled-executor.js';
import { HttpError } from './http-error.js';
import type { ViewerBot } from './viewer.js';

type EventListener = (event: ExecutorEvent) => void;

/** One bot the API serves: its executor, its world, and what the monitor draws of it. */
export interface ApiBot {
  /** The bot's name (its username on a server): what `?bot=` and the stream's `bot` field carry. */
  id: string;
  world: WorldPort;
  executor: Pick<Executor, 'metrics' | 'state'>;
  events: { on(type: 'event', listener: EventListener): unknown; off(type: 'event', listener: EventListener): unknown };
  run(input: unknown): ExecutionRun;
  /** Its raw mineflayer bot, for a 3D view at /viewer/<id>/ (prismarine-viewer); none for SimWorld. */
  viewerBot?: ViewerBot;
}

/** A journaled assembly as an API bot; `run` defaults to the assembly's own. */
export function apiBot(
  id: string,
  assembly: JournaledAssembly,
  extra: Partial<Pick<ApiBot, 'viewerBot' | 'run'>> = {},
): ApiBot {
  return {
    id,
    world: assembly.world,
    executor: assembly.executor,
    events: assembly.executor.events,
    run: (input: unknown) => assembly.run(input as RunInput),
    ...extra,
  };
}

/** Names a bot may take: they go in URLs and the stream as they are. */
const BOT_ID = /^[A-Za-z0-9_.-]{1,40}$/;

/** What the stream and GET /api/bots say of a bot now. */
export interface BotSample {
  bot: string;
  kind: WorldPort['kind'];
  connected: boolean;
  state: ReturnType<Executor['state']>;
  position: { x: number; y: number; z: number };
  health: number;
  food: number;
  /** The plan it runs or last ran in this process, which a monitor opened mid-plan reads back from the journal. */
  plan: string | null;
}

/** The bots one API server serves, by name; the first answers requests that name none. */
export class Bots {
  private readonly byId = new Map<string, ApiBot>();
  private readonly plans = new Map<string, string>();

  constructor(readonly list: readonly ApiBot[]) {
    for (const bot of list) {
      if (!BOT_ID.test(bot.id))
        throw new Error(`bot name "${bot.id}" is not usable in a URL: use 1 to 40 letters, digits, "_", "." or "-"`);
      if (this.byId.has(bot.id))
        throw new Error(`two bots are named "${bot.id}": every bot the API serves needs its own name`);
      this.byId.set(bot.id, bot);
    }
  }

  get size(): number {
    return this.list.length;
  }

  /**
   * The bot `?bot=<name>` names, else the first; none when no bot is attached. An unknown name is a 404 listing the
   * names.
   */
  pick(query: URLSearchParams): ApiBot | undefined {
    const name = query.get('bot');
    if (name === null) return this.list[0];
    const bot = this.byId.get(name);
    if (!bot)
      throw new HttpError(
        404,
        `no bot "${name.slice(0, 60)}" here; ${this.list.length > 0 ? `the bots are ${this.list.map((b) => b.id).join(', ')} (GET /api/bots)` : 'this server has no bot attached'}`,
      );
    return bot;
  }

  /** Follows a bot's events, to know its plan. */
  observe(bot: ApiBot, event: ExecutorEvent): void {
    if (event.type === 'plan.accepted') this.plans.set(bot.id, event.planId);
  }

  sample(bot: ApiBot): BotSample {
    const { world } = bot;
    const p = world.position();
    return {
      bot: bot.id,
      kind: world.kind,
      connected: world.isConnected(),
      state: bot.executor.state(),
      position: { x: p.x, y: p.y, z: p.z },
      health: world.health(),
      food: world.food(),
      plan: this.plans.get(bot.id) ?? null,
    };
  }

  samples(): BotSample[] {
    return this.list.map((bot) => this.sample(bot));
  }
}
