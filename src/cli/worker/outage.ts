import { Gauge, type Registry } from 'prom-client';
import { LagDiscountingClock } from '../../clock/lag-discounting-clock.js';
import type { Clock } from '../../contracts/clock.js';
import type { Journal } from '../../journal/journal.js';

/** What a worker can say of its game server's outage now. */
export interface Outage {
  /** Each held bot away from the server, and since when (epoch ms). */
  disconnected: { bot: string; since: number }[];
  /** Since when (epoch ms) the server is unreachable past the worker's limit (its bots given up); null when it is not. */
  unreachableSince: number | null;
}

/**
 * A time of the (monotonic) injectable clock as epoch ms, for what people and other machines read. On a
 * lag-discounting clock the stall after `at` is counted back in (`baseTimeOf`): a bot away since a moment shows that
 * moment, not one earlier by all the process's loop was ever late; the moment found is never later than the true one
 * (a re-check window from it is never narrower).
 */
export function wallTimeOf(clock: Clock, at: number): number {
  if (!(clock instanceof LagDiscountingClock)) return Math.round(Date.now() - (clock.now() - at));
  return Math.round(Date.now() - (clock.base.now() - clock.baseTimeOf(at)));
}

/**
 * The outage as Prometheus series on a worker's registry, read when scraped: how many of its bots are disconnected,
 * since when each one is, and whether the server is unreachable past the limit (SERVER UNREACHABLE) and since when.
 */
export function registerOutageMetrics(registry: Registry, read: () => Outage): void {
  new Gauge({
    name: 'verbtree_worker_bots_disconnected',
    help: 'Bots this worker holds that are away from the game server now (joining again with backoff)',
    registers: [registry],
    collect() {
      this.set(read().disconnected.length);
    },
  });
  new Gauge({
    name: 'verbtree_worker_bot_disconnected_since_seconds',
    help: 'Since when (Unix seconds) each disconnected bot is away from the game server',
    labelNames: ['bot'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { bot, since } of read().disconnected) this.set({ bot }, since / 1000);
    },
  });
  new Gauge({
    name: 'verbtree_worker_server_unreachable',
    help: "SERVER UNREACHABLE: 1 while the game server has been away past the worker's --away-limit-ms (its bots given up), else 0",
    registers: [registry],
    collect() {
      this.set(read().unreachableSince === null ? 0 : 1);
    },
  });
  new Gauge({
    name: 'verbtree_worker_server_unreachable_since_seconds',
    help: 'Since when (Unix seconds) the game server is unreachable past the limit; 0 while it is not',
    registers: [registry],
    collect() {
      this.set((read().unreachableSince ?? 0) / 1000);
    },
  });
}

/**
 * The game server unreachable past the away limit, as a worker lives it: since when (the clock's ms), and a
 * `server_unreachable` incident in the journal, opened when the first bot gives itself up and resolved when the
 * server answers again, so that every gateway's health reads `degraded` meanwhile (GET /api/health, `verbtree
 * incidents`), not only this worker's log and metrics.
 */
export class ServerUnreachable {
  private at: number | null = null;
  private incident: Promise<number | null> | null = null;

  constructor(
    private readonly deps: {
      journal: Pick<Journal, 'openIncident' | 'resolveIncident'>;
      clock: Clock;
      say: (line: string) => void;
      nodeId: string;
      limitMs: number;
    },
  ) {}

  /** Since when (the clock's ms) the server is unreachable past the limit; null while it is not. */
  get since(): number | null {
    return this.at;
  }

  /** A bot gave itself up, its server away `awayMs`: the first one of an outage opens its incident. */
  gaveUp(bot: string, awayMs: number): void {
    if (this.at !== null) return;
    const { journal, clock, say, nodeId, limitMs } = this.deps;
    this.at = clock.now();
    say('the server is unreachable: claiming no bot until it answers');
    const details = { bot, awayMs, limitMs, reason: `the game server stayed away past ${nodeId}'s --away-limit-ms` };
    this.incident = journal
      .openIncident({ runnerId: nodeId, mode: 'server_unreachable', details })
      .catch((error: unknown) => (say(`could not journal the server_unreachable incident: ${String(error)}`), null));
  }

  /** The server answers a status ping again: the incident is resolved; how long it was unreachable. */
  answered(): number {
    const awayMs = this.at === null ? 0 : Math.round(this.deps.clock.now() - this.at);
    const incident = this.incident;
    this.at = null;
    this.incident = null;
    void incident?.then((id) =>
      id === null
        ? undefined
        : this.deps.journal
            .resolveIncident(id, `the game server answered again after ${awayMs} ms`)
            .catch(() => undefined),
    );
    return awayMs;
  }
}
