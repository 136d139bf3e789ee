import type { WorldPort } from '../contracts/world.js';
import type { ExecutorEvent } from '../executor/events.js';
import type { Executor, ExecutionRun, RunInput } from '../executor/executor.js';
import type { JournaledAssembly } from '../journal/journaled-executor.js';
import { OperationError } from './errors.js';

type EventListener = (event: ExecutorEvent) => void;

/** A value now, or later: this process's bots answer at once, a bot held by another process (a fleet worker) later. */
export type Awaitable<T> = T | Promise<T>;

/** A bot operations act on: its world, its executor's state and SLA, and how a plan starts on it. */
export interface OperatedBot {
  /** The bot's name (its username on a server): what a caller's `bot` argument names. */
  readonly id: string;
  readonly world: WorldPort;
  readonly executor: Pick<Executor, 'metrics' | 'state'>;
  /**
   * Starts a plan (or queues it behind the bot's running one); throws a PlanConflictError when another run holds
   * it. A bot of another process may answer later. Operations end a run through its own `cancel`.
   */
  run(input: unknown): Awaitable<ExecutionRun>;
}

/** A bot a fleet worker in another process holds: plans reach it through the journal's queue, for its holder to run. */
export interface QueuedBot {
  readonly id: string;
  /**
   * Queues the plan for the bot, once per planId: `queued: false` when it was queued before (a client's retry),
   * with where it stands now. A planId the journal holds for another bot is a `conflict`.
   */
  queue(plan: {
    planId: string;
    intentId: string;
    body: unknown;
  }): Promise<{ queued: true } | { queued: false; status: string }>;
}

/** A bot operations reach: one this process drives, or one a fleet worker holds. */
export type ReachableBot = OperatedBot | QueuedBot;

export const isQueuedBot = (bot: ReachableBot): bot is QueuedBot => 'queue' in bot;

/** A bot of this process: also its executor's event stream, which the HTTP stream and the monitor follow. */
export interface LocalBot extends OperatedBot {
  readonly events: {
    on(type: 'event', listener: EventListener): unknown;
    off(type: 'event', listener: EventListener): unknown;
  };
}

/** What listBots and botStatus say of a bot now (and the HTTP stream's `bots.state` samples). */
export interface BotSample {
  bot: string;
  kind: WorldPort['kind'];
  connected: boolean;
  /** The executor's state; away from its server, `disconnected since <time>` (when its world says it rejoins). */
  state: ReturnType<Executor['state']> | `disconnected${string}`;
  /** Where it stands, its health and food: null while it is away from its server (that was the dead session's view). */
  position: { x: number; y: number; z: number } | null;
  health: number | null;
  food: number | null;
  /** The plan it runs or last ran in this process, which a monitor opened mid-plan reads back from the journal. */
  plan: string | null;
}

/**
 * A fleet bot as a gateway sees it (`FleetBots`): its lease (holder, epoch, expiry by the database's clock), its
 * plan and queue, and what its holder last reported of it under that lease (null fields before any report).
 */
export interface FleetBotSample {
  bot: string;
  /** The worker that holds (or last held) its lease; `held` says whether that lease is still live. */
  holder: string | null;
  held: boolean;
  epoch: number;
  leaseExpiresAt: number | null;
  kind: string | null;
  connected: boolean;
  state: string | null;
  position: { x: number; y: number; z: number } | null;
  health: number | null;
  food: number | null;
  /** When its holder last reported (journal clock, epoch ms). */
  reportedAt: number | null;
  /** Its running or interrupted plan, which its (next) holder resumes. */
  plan: string | null;
  /** Plans queued behind it. */
  queued: number;
  /** Its plan queued (or interrupted), waiting for a worker, and why; null when nothing of it waits for one. */
  waiting: PlanWait | null;
}

/**
 * Why a fleet bot's plan waits for a worker: no worker holds the bot (each takes bots only while it has headroom and
 * capacity), or the worker holding it has no headroom to start a plan.
 */
export const PLAN_WAIT_REASONS = ['no_holder', 'no_headroom'] as const;

/** A fleet bot's plan that waits for a worker: queued, why, and since when. */
export interface PlanWait {
  /** The plan that waits: the bot's interrupted (or running, its holder gone) plan, else its first queued one. */
  planId: string;
  reason: (typeof PLAN_WAIT_REASONS)[number];
  /** The reason in words, naming the worker when one holds the bot. */
  detail: string;
  /** Since when it waits (journal clock, epoch ms): when it was queued or interrupted, or its holder's lease lapsed. */
  since: number;
}

/**
 * The bots operations can reach, by name. This process's own are `LocalBots`; a fleet gateway (bots held by
 * workers in other processes) is `FleetBots`.
 */
export interface BotAccess {
  /**
   * The bot `name` names, or the default one (the first) when no name is given; undefined when none answers a
   * request that names no bot. An unknown name is a `not_found` OperationError that lists the bots.
   */
  get(name?: string): Awaitable<ReachableBot | undefined>;
  /** Why no bot answers a request that names none; default: no bot is attached to this process. */
  noneNamed?(): Awaitable<OperationError>;
  sample(bot: ReachableBot): Awaitable<BotSample | FleetBotSample>;
  samples(): Awaitable<(BotSample | FleetBotSample)[]>;
}

/** A journaled assembly as a bot of this process; `run` defaults to the assembly's own. */
export function localBot(id: string, assembly: JournaledAssembly, run?: LocalBot['run']): LocalBot {
  return {
    id,
    world: assembly.world,
    executor: assembly.executor,
    events: assembly.executor.events,
    run: run ?? ((input: unknown) => assembly.run(input as RunInput)),
  };
}

/** Names a bot may take: they go in URLs, resource URIs and the event stream as they are. */
const BOT_ID = /^[A-Za-z0-9_.-]{1,40}$/;

/** The bots this process drives, by name; the first answers requests that name none. */
export class LocalBots<Bot extends LocalBot = LocalBot> implements BotAccess {
  private readonly byId = new Map<string, Bot>();
  private readonly plans = new Map<string, string>();
  /** When each bot's connection last dropped (epoch ms): what its status says while it is away. */
  private readonly lostAt = new Map<string, number>();

  constructor(readonly list: readonly Bot[]) {
    for (const bot of list) {
      if (!BOT_ID.test(bot.id))
        throw new Error(`bot name "${bot.id}" is not usable in a URL: use 1 to 40 letters, digits, "_", "." or "-"`);
      if (this.byId.has(bot.id))
        throw new Error(`two bots are named "${bot.id}": every bot the API serves needs its own name`);
      this.byId.set(bot.id, bot);
    }
    for (const bot of list) bot.world.events.on('disconnected', () => this.lostAt.set(bot.id, Date.now()));
  }

  get size(): number {
    return this.list.length;
  }

  get(name?: string): Bot | undefined {
    if (name === undefined) return this.list[0];
    const bot = this.byId.get(name);
    if (!bot)
      throw new OperationError(
        'not_found',
        `no bot "${name.slice(0, 60)}" here; ${this.list.length > 0 ? `the bots are ${this.list.map((b) => b.id).join(', ')}` : 'this server has no bot attached'}`,
        { field: 'bot', bots: this.list.map((b) => b.id), ...(this.list.length > 0 ? { see: 'listBots' } : {}) },
      );
    return bot;
  }

  /** Follows a bot's events, to know its plan. */
  observe(bot: OperatedBot, event: ExecutorEvent): void {
    if (event.type === 'plan.accepted') this.plans.set(bot.id, event.planId);
  }

  sample(bot: OperatedBot): BotSample {
    const { world } = bot;
    const plan = this.plans.get(bot.id) ?? null;
    if (!world.isConnected()) {
      const lost = this.lostAt.get(bot.id);
      const state: BotSample['state'] =
        lost === undefined ? 'disconnected' : `disconnected since ${new Date(lost).toISOString()}`;
      return { bot: bot.id, kind: world.kind, connected: false, state, position: null, health: null, food: null, plan };
    }
    const p = world.position();
    return {
      bot: bot.id,
      kind: world.kind,
      connected: world.isConnected(),
      state: bot.executor.state(),
      position: { x: p.x, y: p.y, z: p.z },
      health: world.health(),
      food: world.food(),
      plan,
    };
  }

  samples(): BotSample[] {
    return this.list.map((bot) => this.sample(bot));
  }
}
