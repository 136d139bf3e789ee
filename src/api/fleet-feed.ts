import type { Clock, TimerHandle } from '../contracts/clock.js';
import type { Journal } from '../journal/journal.js';
import type { FleetBotSample } from '../operations/bot-access.js';
import type { FleetBots } from '../operations/fleet-bots.js';

export interface FleetFeedOptions {
  clock: Clock;
  /** How often the journal's event feed is read. */
  everyMs?: number;
  /** How often the fleet's bots are sampled (a `bots.state` message). */
  samplesEveryMs?: number;
}

/** Events read from the journal per page. */
const PAGE = 500;

/**
 * The live stream of a fleet gateway, whose bots run in workers elsewhere: every event any worker journals, read
 * from the shared journal in commit order (`eventFeed`'s cursor never passes an event a running transaction may
 * still commit) and sent on with its bot's name, as a process's own bots' events are; and a `bots.state` sample of
 * the whole fleet each period. The journal is the only source: a gateway on another machine sends the same.
 */
export class FleetFeed {
  private cursor: string | null = null;
  private last: FleetBotSample[] = [];
  private timer: TimerHandle | null = null;
  private sinceSample = 0;
  private stopped = false;
  private readonly everyMs: number;
  private readonly samplesEveryMs: number;

  constructor(
    private readonly journal: Pick<Journal, 'eventFeed' | 'eventFeedEnd'>,
    private readonly bots: FleetBots,
    private readonly send: (message: unknown) => void,
    /** Whether anyone listens: while nobody does, the feed only keeps its place at the journal's end. */
    private readonly listening: () => boolean,
    private readonly options: FleetFeedOptions,
  ) {
    this.everyMs = options.everyMs ?? 250;
    this.samplesEveryMs = options.samplesEveryMs ?? 1000;
  }

  /** Starts after every event committed now: a client catches up on a run's past from GET /api/runs/<planId>/events. */
  async start(): Promise<void> {
    this.cursor = await this.journal.eventFeedEnd();
    this.last = await this.bots.samples();
    this.schedule();
  }

  /** What a client is told first: the fleet as last sampled. */
  hello(): unknown {
    return { type: 'hello', attached: this.last.length > 0, fleet: true, bots: this.last };
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.options.clock.setTimeout(() => void this.tick(), this.everyMs);
  }

  /** One read: the events committed since the last, then (each `samplesEveryMs`) the fleet. A failed read is retried next period. */
  private async tick(): Promise<void> {
    try {
      await this.relayEvents();
      this.sinceSample += this.everyMs;
      if (this.sinceSample >= this.samplesEveryMs) {
        this.sinceSample = 0;
        this.last = await this.bots.samples();
        this.send({ type: 'bots.state', at: this.options.clock.now(), bots: this.last });
      }
    } catch {
      // The journal is unreachable for now (a restart, a network cut): the cursor stays, and nothing is skipped.
    } finally {
      this.schedule();
    }
  }

  private async relayEvents(): Promise<void> {
    if (!this.listening()) {
      // Nobody to send to: skip to the journal's end instead of pulling every worker's events over the network.
      this.cursor = (await this.journal.eventFeedEnd()) ?? this.cursor;
      return;
    }
    for (;;) {
      const page = await this.journal.eventFeed(this.cursor, PAGE);
      for (const row of page.rows)
        this.send({ ...(row.event as Record<string, unknown>), ...(row.bot ? { bot: row.bot } : {}) });
      this.cursor = page.cursor;
      if (page.rows.length < PAGE || this.stopped) return;
    }
  }
}
