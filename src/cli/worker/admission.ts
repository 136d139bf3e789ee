import { WAITING_FOR_HEADROOM, type BotReport } from '../../journal/rows.js';
import { admits, type Headroom } from './headroom.js';

/**
 * Which of a worker's bots start a plan now: every one while the worker has headroom; past it, none more (one when
 * none is under way), the rest held back until headroom comes back, each reporting its queued plan as waiting. The
 * worker's claims ask the same question (`admitting`) with the bots it holds.
 */
export class Admission {
  /** Bots admitted to a plan (or a look at their queue) that have not come back for the next. */
  private readonly underWay = new Set<string>();
  /** Bots waiting for headroom before they start a plan: each one's admission. */
  private readonly heldBack = new Map<string, () => void>();
  /** The bots the last pick-up found with a plan queued. */
  private queuedNow = new Set<string>();
  /** Why the worker last refused a bot or a plan; null while it has headroom. */
  private refusing: string | null = null;
  /** Plans held back for want of headroom before they started, since the worker started. */
  plansHeldBack = 0;

  constructor(
    private readonly measure: { headroom(): Headroom },
    private readonly say: (line: string) => void,
  ) {}

  /** How many of its bots have a plan queued that waits for its headroom. */
  get plansWaiting(): number {
    return [...this.heldBack.keys()].filter((bot) => this.queuedNow.has(bot)).length;
  }

  get holdingBack(): number {
    return this.heldBack.size;
  }

  /**
   * Whether the worker takes one more bot or plan, with `underWay` of them on its hands (`admits`). The log says once
   * when it starts refusing, and why, and once when it has headroom again.
   */
  admitting(underWay: number): boolean {
    const headroom = this.measure.headroom();
    if (headroom.room) {
      if (this.refusing !== null) this.say('headroom again: claiming bots and starting plans');
      this.refusing = null;
    } else {
      if (this.refusing === null)
        this.say(`no headroom: ${headroom.reason}: claiming no more bots and starting no more plans until it has`);
      this.refusing = headroom.reason;
    }
    return admits(headroom, underWay);
  }

  /**
   * Resolves once `bot` may start a plan (at once while the worker has headroom), or `cancel` aborts; `done` says
   * that plan (or the look at the bot's queue) is over.
   */
  admit(bot: string, cancel: AbortSignal): Promise<{ done(): void }> {
    const ticket = { done: () => void this.underWay.delete(bot) };
    if (this.admitting(this.underWay.size)) {
      this.underWay.add(bot);
      return Promise.resolve(ticket);
    }
    this.plansHeldBack++;
    return new Promise((resolve) => {
      const letIn = () => {
        cancel.removeEventListener('abort', letIn);
        if (this.heldBack.get(bot) === letIn) this.heldBack.delete(bot);
        this.underWay.add(bot);
        resolve(ticket);
      };
      cancel.addEventListener('abort', letIn, { once: true });
      this.heldBack.set(bot, letIn);
      if (cancel.aborted) letIn();
    });
  }

  /** A pick-up found plans queued for `queued`: bots held back start as headroom allows, one more per admission. */
  pickedUp(queued: readonly string[]): void {
    this.queuedNow = new Set(queued);
    for (const letIn of [...this.heldBack.values()]) {
      if (!this.admitting(this.underWay.size)) break;
      letIn();
    }
  }

  /** A bot whose queued plan waits for the worker's headroom reports so, whatever its executor's state. */
  reported(report: BotReport | null): BotReport | null {
    if (report === null || !this.heldBack.has(report.bot) || !this.queuedNow.has(report.bot)) return report;
    return { ...report, state: WAITING_FOR_HEADROOM };
  }
}
