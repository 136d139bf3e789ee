import type { Clock, TimerHandle } from '../../contracts/clock.js';
import type { BotReport, Fence } from '../../journal/rows.js';
import type { Interruption } from '../../journal/sql/fleet.js';
import { Admission } from './admission.js';
import type { Headroom } from './headroom.js';
import { HeldBot, type FenceCause, type HeldBotDeps } from './held-bot.js';
import { ServerUnreachable, wallTimeOf, type Outage } from './outage.js';
import { DEFAULT_AWAY_LIMIT_MS } from './stay-joined.js';

/**
 * How a worker keeps its leases: they last `ttlMs` by the database's clock from each claim or renewal; all are renewed
 * in one statement every `renewEveryMs`; a bot whose last renewal (or claim) was sent more than `fenceAfterMs` ago is
 * fenced on a timer of its own, leaving the rest of the lease for the fence to finish before anyone may claim the bot;
 * free bots are claimed every `claimEveryMs`.
 */
export interface LeaseTiming {
  ttlMs: number;
  renewEveryMs: number;
  fenceAfterMs: number;
  claimEveryMs: number;
  /** How often the worker asks, for all its idle bots at once, which have a plan queued. */
  pickUpEveryMs: number;
}

/** A plan starts within this long of its enqueue (one read per worker each time, whatever its number of bots). */
const PICK_UP_EVERY_MS = 250;

/** Lease renewals a worker lets be under way at once (sent every renewEveryMs, whatever the last one's answer). */
const MAX_RENEWALS_UNDER_WAY = 2;

/**
 * Bots one claim pass takes at most, by default: as many as log in at once (the worker command's JoinGate), so that a
 * fresh worker's first pass cannot take a whole fleet before the load of what it took shows in its headroom; the rest
 * are claimed on its later passes, or by other workers meanwhile.
 */
export const DEFAULT_CLAIMS_PER_PASS = 8;

/** The share of the lease after which a worker whose renewals do not come back fences itself. */
export const FENCE_SHARE = 0.5;

export function leaseTiming(ttlMs: number): LeaseTiming {
  const tick = Math.max(50, Math.round(ttlMs / 5));
  return {
    ttlMs,
    renewEveryMs: tick,
    fenceAfterMs: Math.round(ttlMs * FENCE_SHARE),
    claimEveryMs: tick,
    pickUpEveryMs: Math.min(tick, PICK_UP_EVERY_MS),
  };
}

export interface FleetWorkerOptions {
  /** The worker's node id: its runner id and its leases' holder. */
  nodeId: string;
  /** Bots it adds to the fleet and claims first. */
  bots: readonly string[];
  /** How many bots it holds in all, its own and any free ones of the fleet. */
  capacity: number;
  /** Bots one claim pass takes at most (default DEFAULT_CLAIMS_PER_PASS). */
  claimsPerPass?: number;
  timing: LeaseTiming;
}

interface Holding {
  bot: HeldBot;
  /**
   * When its claim's answer came back: only a renewal sent after that can have run after the claim and renewed this
   * epoch. A renewal sent while the claim was still on its way may have run first and missed it, which said nothing of
   * the lease; read as lost, it fenced the bot just claimed (lease_lost), to be claimed again under the next epoch.
   */
  claimedAt: number;
  /** When its self-fence is due. */
  deadline: number;
  /** The self-fence timer, armed from the last renewal (or the claim) that came back. */
  timer: TimerHandle;
}

/** What a worker counted since it started, for its metrics. */
export interface WorkerCounts {
  /** Bots fenced, by why. */
  fences: Record<FenceCause, number>;
  /** Claims it did not make for want of headroom (another worker takes the bot, or it waits). */
  claimsRefused: number;
}

const key = (fence: Fence) => `${fence.bot}#${fence.epoch}`;
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A fleet worker's leases and bots: it adds its own bots to the fleet, claims them and free ones up to its capacity,
 * renews every lease it holds in one statement per interval, and fences a bot (HeldBot.fenceFor) when its renewal is
 * late or its lease was lost. Renewals and claims run on timers of their own, and so does each bot's fence: a stalled
 * statement delays neither the other loop nor a fence.
 */
export class FleetWorker {
  private readonly held = new Map<string, Holding>();
  /** Bots whose claim is on its way: a renewal that sees their lease first must not release it. */
  private readonly claimingNow = new Set<string>();
  /** Idle bots waiting for a plan: each one's wake-up. */
  private readonly idle = new Map<string, () => void>();
  private stopped = false;
  private timers: TimerHandle[] = [];
  /** Renewals sent and not yet answered. */
  private renewing = 0;
  private claiming = false;
  private reporting = false;
  private lastRenewalError: string | null = null;
  private lastClaimError: string | null = null;
  /** Since when a bot of this worker gave itself up because the server stayed away, and its incident. */
  private readonly unreachable: ServerUnreachable;
  /** Fences by cause and claims refused, since it started. */
  readonly counts: WorkerCounts = {
    fences: { lease_lost: 0, renewal_late: 0, released: 0, failed: 0 },
    claimsRefused: 0,
  };
  /** Its headroom's say over which plans start. */
  readonly admission: Admission;

  constructor(
    private readonly deps: Omit<HeldBotDeps, 'planQueued' | 'serverAway'> & {
      clock: Clock;
      /** Whether the server answers now (a status ping): a worker that cannot reach it claims no bot. */
      reachable?: () => Promise<boolean>;
      /** Whether the worker has room for more load now (default: always). */
      headroom?: { headroom(): Headroom };
    },
    private readonly options: FleetWorkerOptions,
  ) {
    this.admission = new Admission(deps.headroom ?? { headroom: () => ({ room: true }) }, deps.say);
    const { journal, clock, say, awayLimitMs: limitMs = DEFAULT_AWAY_LIMIT_MS } = deps;
    this.unreachable = new ServerUnreachable({ journal, clock, say, nodeId: options.nodeId, limitMs });
  }

  async start(): Promise<void> {
    for (const bot of this.options.bots) await this.deps.journal.addBot({ name: bot });
    this.every(() => this.renew(), this.options.timing.renewEveryMs);
    this.loop(() => this.claim(), this.options.timing.claimEveryMs);
    this.loop(() => this.pickUp(), this.options.timing.pickUpEveryMs);
    await this.claim();
  }

  /** How many bots it holds now. */
  get botsHeld(): number {
    return this.held.size;
  }

  /** Gives every bot up (their plans journaled interrupted, their leases released) and stops claiming. */
  async stop(why: Interruption): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) this.deps.clock.clearTimeout(timer);
    await Promise.all(
      [...this.held.values()].map((holding) => {
        this.deps.clock.clearTimeout(holding.timer);
        return holding.bot.stop(why);
      }),
    );
  }

  private loop(body: () => Promise<void>, everyMs: number): void {
    const again = () => {
      if (this.stopped) return;
      const timer = this.deps.clock.setTimeout(() => {
        this.timers = this.timers.filter((t) => t !== timer);
        void body().finally(again);
      }, everyMs);
      this.timers.push(timer);
    };
    again();
  }

  /**
   * Runs `body` every `everyMs` from its last start, whether or not its last run has ended: a renewal that is slow to
   * come back does not push the next one later (after its answer, the next went out 3 s later still, and two slow
   * answers in a row passed the fence's 7.5 s).
   */
  private every(body: () => Promise<void>, everyMs: number): void {
    const again = () => {
      if (this.stopped) return;
      const timer = this.deps.clock.setTimeout(() => {
        this.timers = this.timers.filter((t) => t !== timer);
        again();
        void body();
      }, everyMs);
      this.timers.push(timer);
    };
    again();
  }

  /**
   * One statement renews every lease; a bot it did not renew (lost, or expired) is fenced at once, one it renewed is
   * given until `fenceAfterMs` after this renewal was sent. A lease renewed that no live bot stands for (a bot being
   * fenced, or a previous life's under this node id) is released.
   */
  private async renew(): Promise<void> {
    // Two under way at most: a third would only wait for a connection of the lease pool behind them.
    if (this.renewing >= MAX_RENEWALS_UNDER_WAY) return;
    this.renewing++;
    const sentAt = this.deps.clock.now();
    try {
      const renewed = await this.deps.journal.renewLeases(this.options.nodeId, this.options.timing.ttlMs);
      this.lastRenewalError = null;
      // A bot whose claim came back after this renewal was sent may have been claimed after it ran: it says nothing
      // of that bot (its self-fence stays armed from its claim).
      const live = new Map(
        [...this.held.values()].filter((h) => !h.bot.fenced && h.claimedAt < sentAt).map((h) => [key(h.bot.fence), h]),
      );
      for (const fence of renewed) {
        const holding = live.get(key(fence));
        if (holding) this.arm(holding, sentAt + this.options.timing.fenceAfterMs);
        else if (!this.held.has(fence.bot) && !this.claimingNow.has(fence.bot))
          void this.deps.journal.releaseBot({ ...fence, holder: this.options.nodeId }).catch(() => false);
      }
      const kept = new Set(renewed.map(key));
      for (const [k, holding] of live)
        if (!kept.has(k))
          void this.drop(
            holding,
            { code: 'lease_lost', reason: 'its lease was not renewed: it expired or moved on' },
            'lease_lost',
          );
      // Neither the releases nor the report hold the next renewal back: they wait for the bots' connections.
      void this.report([...live.values()].filter((h) => kept.has(key(h.bot.fence))));
    } catch (error) {
      // The timers fence the bots if renewals stay away; one line per outage, not one per try.
      if (this.lastRenewalError === null) this.deps.say(`lease renewal failed: ${message(error)}`);
      this.lastRenewalError = message(error);
    } finally {
      this.renewing--;
    }
  }

  /**
   * Tells the journal what each bot it still holds is doing (agent state, where it stands), one statement per
   * renewal, so a gateway lists the fleet as its workers see it; a report lost is only a stale listing, so its failure
   * is not the lease's.
   */
  private async report(holdings: readonly Holding[]): Promise<void> {
    const reports = holdings
      .map((h) => this.admission.reported(h.bot.report()))
      .filter((r): r is BotReport => r !== null);
    if (this.reporting || reports.length === 0) return;
    this.reporting = true;
    await this.deps.journal.reportBots(reports).catch(() => 0);
    this.reporting = false;
  }

  /**
   * Claims its own bots first, then free or expired bots of the fleet, until it holds its capacity, at most
   * `claimsPerPass` of them in one pass.
   */
  private async claim(): Promise<void> {
    if (this.claiming || this.stopped || this.held.size >= this.options.capacity) return;
    this.claiming = true;
    try {
      if (!(await this.serverAnswers())) return;
      const fleet = await this.deps.journal.listBots();
      const free = new Set(fleet.filter((b) => !b.held).map((b) => b.name));
      const own = this.options.bots.filter((b) => free.has(b));
      const others = [...free].filter((b) => !this.options.bots.includes(b));
      let claimed = 0;
      const claimsPerPass = this.options.claimsPerPass ?? DEFAULT_CLAIMS_PER_PASS;
      for (const bot of [...own, ...others]) {
        if (this.stopped || this.held.size >= this.options.capacity || claimed >= claimsPerPass) break;
        if (this.held.has(bot)) continue;
        // Past its headroom it leaves the bot to another worker (or to a later claim of its own).
        if (!this.admission.admitting(this.held.size)) {
          this.counts.claimsRefused++;
          break;
        }
        const sentAt = this.deps.clock.now();
        this.claimingNow.add(bot);
        try {
          const epoch = await this.deps.journal.claimBot(bot, this.options.nodeId, this.options.timing.ttlMs);
          if (epoch !== null) {
            this.hold({ bot, epoch }, sentAt);
            claimed++;
          }
        } finally {
          this.claimingNow.delete(bot);
        }
      }
      this.lastClaimError = null;
    } catch (error) {
      if (this.lastClaimError === null) this.deps.say(`claiming bots failed: ${message(error)}`);
      this.lastClaimError = message(error);
    } finally {
      this.claiming = false;
    }
  }

  /** The game server's outage as this worker sees it, for its metrics (outage.ts). */
  outage(): Outage {
    const disconnected = [...this.held.values()].flatMap(({ bot }) => {
      const since = bot.disconnectedSince();
      return since === null ? [] : [{ bot: bot.fence.bot, since }];
    });
    const away = this.unreachable.since;
    return { disconnected, unreachableSince: away === null ? null : wallTimeOf(this.deps.clock, away) };
  }

  /**
   * A worker whose bots gave themselves up because the server stayed away claims none (it would only take them from
   * a worker that can reach it) until the server answers a status ping again.
   */
  private async serverAnswers(): Promise<boolean> {
    if (this.unreachable.since === null) return true;
    if (!(await (this.deps.reachable?.() ?? Promise.resolve(true)))) return false;
    const awayMs = this.unreachable.answered();
    this.deps.say(`the server answers again after ${awayMs} ms: claiming bots again`);
    return true;
  }

  /**
   * Wakes each idle bot that has a plan queued, from one read for every bot this worker holds. Each bot asking its own
   * queue (a fenced transaction every 3 s per bot) was 50 transactions a second at 150 bots, ahead of their step writes
   * in the pool, and still let a plan wait up to 3 s.
   */
  private async pickUp(): Promise<void> {
    if (this.idle.size === 0 && this.admission.holdingBack === 0) return;
    const queued = await this.deps.journal.queuedBots(this.options.nodeId).catch(() => []);
    for (const bot of queued) this.idle.get(bot)?.();
    this.admission.pickedUp(queued);
  }

  /**
   * Resolves when a pick-up finds a plan queued for `bot`, or when `cancel` aborts. A lease's time later it resolves
   * anyway, so a missed wake-up costs at most that wait.
   */
  private planQueued(bot: string, cancel: AbortSignal): Promise<void> {
    const { clock } = this.deps;
    return new Promise((resolve) => {
      const wake = () => {
        clock.clearTimeout(timer);
        cancel.removeEventListener('abort', wake);
        if (this.idle.get(bot) === wake) this.idle.delete(bot);
        resolve();
      };
      const timer = clock.setTimeout(wake, this.options.timing.ttlMs);
      cancel.addEventListener('abort', wake, { once: true });
      this.idle.set(bot, wake);
      if (cancel.aborted) wake();
    });
  }

  private hold(fence: Fence, sentAt: number): void {
    this.deps.say(`claimed ${fence.bot} (epoch ${fence.epoch})`);
    const planQueued = (bot: string, cancel: AbortSignal) => this.planQueued(bot, cancel);
    const admit = (bot: string, cancel: AbortSignal) => this.admission.admit(bot, cancel);
    const serverAway = (bot: string, awayMs: number) => this.unreachable.gaveUp(bot, awayMs);
    const bot = new HeldBot(fence, this.options.nodeId, { ...this.deps, planQueued, admit, serverAway });
    const holding: Holding = {
      bot,
      claimedAt: this.deps.clock.now(),
      deadline: 0,
      timer: this.deps.clock.setTimeout(() => undefined, 0),
    };
    this.held.set(fence.bot, holding);
    this.arm(holding, sentAt + this.options.timing.fenceAfterMs);
    void bot.done.finally(() => {
      const cause = bot.fenceCause;
      if (cause) this.counts.fences[cause]++;
      this.deps.clock.clearTimeout(holding.timer);
      if (this.held.get(fence.bot) === holding) this.held.delete(fence.bot);
    });
  }

  /**
   * The bot's self-fence, due at `deadline` unless a later renewal moves it; never earlier than it was (with two
   * renewals under way, the older may come back last).
   */
  private arm(holding: Holding, deadline: number): void {
    const { clock } = this.deps;
    if (deadline <= holding.deadline) return;
    holding.deadline = deadline;
    clock.clearTimeout(holding.timer);
    const { fenceAfterMs, ttlMs } = this.options.timing;
    const late = () => {
      // Still due after the loop read what came in: no renewal came back in time.
      if (holding.deadline !== deadline) return;
      void this.drop(
        holding,
        {
          code: 'lease_lost',
          reason: `no lease renewal came back within ${fenceAfterMs} ms (of its ${ttlMs} ms): this worker fenced itself`,
        },
        'renewal_late',
      );
    };
    // On a late event loop the timer fires before the loop reads the renewal's answer that came meanwhile (timers run
    // before I/O in each turn): the check phase comes after that read, and a renewal read there moves the deadline.
    holding.timer = clock.setTimeout(() => setImmediate(late), Math.max(0, deadline - clock.now()));
  }

  private drop(holding: Holding, why: Interruption, cause: FenceCause): Promise<void> {
    this.deps.clock.clearTimeout(holding.timer);
    return holding.bot.fenceFor(why, cause);
  }
}
