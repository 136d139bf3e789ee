import type { Journal } from '../journal/journal.js';
import { WAITING_FOR_HEADROOM, type BotView } from '../journal/rows.js';
import type { BotAccess, FleetBotSample, PlanWait, QueuedBot } from './bot-access.js';
import { journalUnreachable } from '../journal/unreachable.js';
import { OperationError } from './errors.js';

/** How soon a caller refused for a journal that is down may ask again: about a database restart's time. */
const RETRY_AFTER_SECONDS = 5;

/** What a fleet gateway reads and writes of the journal: the fleet's bots, and each bot's queue of plans. */
export type FleetJournal = Pick<Journal, 'listBots' | 'enqueuePlan'>;

/**
 * The bots of a fleet (journal rows, each held under a lease by a worker in some other process), as operations
 * reach them from a gateway that holds none: a plan is queued in the journal for the bot's holder to run, and what
 * a bot is doing is what its holder last reported. Every answer is read from the journal when asked, so gateways
 * on other machines agree.
 */
export class FleetBots implements BotAccess {
  constructor(private readonly journal: FleetJournal) {}

  /** A fleet has no default bot: a request that names none gets `undefined` (see `noneNamed`). */
  async get(name?: string): Promise<QueuedBot | undefined> {
    if (name === undefined) return undefined;
    const names = (await this.journal.listBots()).map((b) => b.name);
    if (!names.includes(name)) throw unknownBot(name, names);
    return this.queued(name);
  }

  async noneNamed(): Promise<OperationError> {
    const names = (await this.journal.listBots()).map((b) => b.name);
    if (names.length === 0)
      return new OperationError(
        'unavailable',
        'the fleet has no bot yet: start a worker with --bot <name> (verbtree worker --journal … --bot <name>) to add one',
      );
    return new OperationError(
      'invalid',
      `name the bot to queue the plan for (?bot=<name>): the fleet's bots are ${names.join(', ')}`,
      { field: 'bot', bots: names, see: 'listBots' },
    );
  }

  async sample(bot: { id: string }): Promise<FleetBotSample> {
    const view = (await this.journal.listBots()).find((b) => b.name === bot.id);
    if (!view) throw unknownBot(bot.id, []);
    return fleetSample(view);
  }

  async samples(): Promise<FleetBotSample[]> {
    return (await this.listed()).map(fleetSample);
  }

  /** The fleet's bots; with the journal's database down, a refusal that says so (a caller may try again). */
  private async listed(): Promise<BotView[]> {
    try {
      return await this.journal.listBots();
    } catch (error) {
      const reason = journalUnreachable(error);
      if (reason === null) throw error;
      throw new OperationError(
        'unavailable',
        `the fleet's journal is unreachable (${reason}): its bots cannot be listed until the database is back; try again shortly`,
        { retryAfterSeconds: RETRY_AFTER_SECONDS },
      );
    }
  }

  private queued(name: string): QueuedBot {
    return {
      id: name,
      queue: async (plan) => {
        const answer = await this.journal.enqueuePlan({ ...plan, bot: name });
        if (answer.queued) return { queued: true };
        if ('unknownBot' in answer) throw unknownBot(name, answer.bots);
        if (answer.existing.bot !== name)
          throw new OperationError(
            'conflict',
            `plan "${plan.planId}" is already in the journal ${answer.existing.bot ? `for bot ${answer.existing.bot}` : 'as a run of another process'} (${answer.existing.status}); a planId names one plan: give this one a new planId`,
            { field: 'planId' },
          );
        return { queued: false, status: answer.existing.status };
      },
    };
  }
}

/** A fleet bot as its row says: its lease, its plan and queue, and its holder's last report under that lease. */
export function fleetSample(view: BotView): FleetBotSample {
  const status = view.status;
  return {
    bot: view.name,
    holder: view.holder,
    held: view.held,
    epoch: view.epoch,
    leaseExpiresAt: view.expiresAt,
    kind: status?.kind ?? null,
    connected: status?.connected ?? false,
    state: status?.state ?? null,
    position: status?.position ?? null,
    health: status?.health ?? null,
    food: status?.food ?? null,
    reportedAt: status?.reportedAt ?? null,
    plan: view.plan,
    queued: view.queued,
    waiting: waitingFor(view),
  };
}

/**
 * Why a bot's plan waits for a worker: no worker holds the bot (each refuses a claim past its headroom, or none has
 * spare capacity), or its holder reported it waiting for headroom. null when nothing of it waits, or it waits for
 * nothing but its turn (a holder with headroom takes it at its next look).
 */
function waitingFor(view: BotView): PlanWait | null {
  const plan = waitingPlan(view);
  if (plan === null) return null;
  if (!view.held)
    return {
      planId: plan.planId,
      reason: 'no_holder',
      detail: 'no worker holds the bot (each takes bots only while it has headroom and capacity)',
      // A plan its holder left waits from the moment the holder's lease lapsed.
      since: Math.max(plan.since, view.expiresAt ?? plan.since),
    };
  if (view.status?.state === WAITING_FOR_HEADROOM)
    return {
      planId: plan.planId,
      reason: 'no_headroom',
      detail: `its worker ${view.holder} has no headroom; the plan starts when it has`,
      since: plan.since,
    };
  return null;
}

/** The plan a holder of the bot takes first (its unfinished plan, else its first queued one), and since when. */
function waitingPlan(view: BotView): { planId: string; since: number } | null {
  if (view.plan !== null) return { planId: view.plan, since: view.planSince ?? view.addedAt };
  if (view.nextQueued !== null) return { planId: view.nextQueued.planId, since: view.nextQueued.queuedAt };
  return null;
}

function unknownBot(name: string, names: readonly string[]): OperationError {
  return new OperationError(
    'not_found',
    `no bot "${name.slice(0, 60)}" in the fleet; ${names.length > 0 ? `its bots are ${names.join(', ')}` : 'it has no bot yet (a worker adds one with --bot <name>)'}`,
    { field: 'bot', bots: [...names], see: 'listBots' },
  );
}
