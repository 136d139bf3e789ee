import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JournalTiming } from '../../journal/postgres/postgres-journal.js';
import type { FleetWorker } from './fleet-worker.js';
import type { HeadroomMonitor } from './headroom.js';

/** What a worker's metrics read when Prometheus scrapes them. */
export interface WorkerMetricSources {
  worker: Pick<FleetWorker, 'botsHeld' | 'counts' | 'admission'>;
  headroom: Pick<HeadroomMonitor, 'headroom' | 'last' | 'limits'>;
  capacity: number;
  /** Writes refused because their lease was lost (the journal's count). */
  fencedWritesRefused: () => number;
  /** The time (ms) the bots' clock left uncharged to their steps, the event loop being late (stepClock.stolenMs). */
  stolenMs: () => number;
}

export interface WorkerMetrics {
  registry: Registry;
  /** Hears each journal transaction's times (`openJournal`'s `observe`). */
  observeJournal(timing: JournalTiming): void;
}

/** A counter whose value is read from a count kept elsewhere, at each scrape. */
function countOf(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

function gaugeOf(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}

/**
 * A worker's Prometheus series (issue 34): the bots it holds, its headroom and what it is measured from, the plans
 * waiting for it, the journal's latency, and its fences by cause. examples/grafana/fleet-dashboard.json charts them.
 */
export function createWorkerMetrics(sources: WorkerMetricSources): WorkerMetrics {
  const registry = new Registry();
  const { worker, headroom } = sources;
  gaugeOf(registry, 'verbtree_worker_bots_held', 'Bots this worker holds a lease on', () => worker.botsHeld);
  gaugeOf(
    registry,
    'verbtree_worker_capacity',
    'Bots this worker may hold at most (--capacity)',
    () => sources.capacity,
  );
  gaugeOf(registry, 'verbtree_worker_headroom', '1 while the worker has headroom to take bots and plans, else 0', () =>
    headroom.headroom().room ? 1 : 0,
  );
  gaugeOf(
    registry,
    'verbtree_worker_event_loop_delay_ms',
    "The event loop's lateness over the last window (p99, ms)",
    () => headroom.last?.loopDelayMs ?? 0,
  );
  gaugeOf(
    registry,
    'verbtree_worker_event_loop_delay_limit_ms',
    'The loop delay past which the worker has no headroom (--max-loop-delay-ms)',
    () => headroom.limits.loopDelayMs,
  );
  countOf(
    registry,
    'verbtree_worker_loop_stolen_seconds_total',
    "Time the worker's event loop was late, not charged to its bots' steps (their judges wait it out)",
    () => sources.stolenMs() / 1_000,
  );
  gaugeOf(
    registry,
    'verbtree_worker_cpu_cores',
    "The share of a core the worker's process used over the last window",
    () => headroom.last?.cpu ?? 0,
  );
  gaugeOf(
    registry,
    'verbtree_worker_plans_waiting',
    'Plans queued for bots of this worker that wait for its headroom',
    () => worker.admission.plansWaiting,
  );
  countOf(
    registry,
    'verbtree_worker_plans_held_back_total',
    'Plans the worker held back for want of headroom before starting them',
    () => worker.admission.plansHeldBack,
  );
  countOf(
    registry,
    'verbtree_worker_claims_refused_total',
    'Bots the worker left to others for want of headroom',
    () => worker.counts.claimsRefused,
  );
  new Counter({
    name: 'verbtree_worker_fences_total',
    help: 'Bots fenced, by cause: lease_lost, renewal_late, released (a stop, its server away), failed (its work failed)',
    labelNames: ['cause'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [cause, n] of Object.entries(worker.counts.fences)) this.inc({ cause }, n);
    },
  });
  countOf(
    registry,
    'verbtree_journal_fenced_writes_refused_total',
    'Journal writes refused because their lease was lost',
    sources.fencedWritesRefused,
  );
  const buckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
  const took = new Histogram({
    name: 'verbtree_journal_transaction_seconds',
    help: 'Journal transactions from asking for a connection to its release, by pool (bots, lease)',
    labelNames: ['pool'],
    buckets,
    registers: [registry],
  });
  const waited = new Histogram({
    name: 'verbtree_journal_connection_wait_seconds',
    help: 'How long journal transactions waited for a connection of their pool, by pool (bots, lease)',
    labelNames: ['pool'],
    buckets,
    registers: [registry],
  });
  return {
    registry,
    observeJournal(timing) {
      took.observe({ pool: timing.pool }, timing.tookMs / 1_000);
      waited.observe({ pool: timing.pool }, timing.waitedMs / 1_000);
    },
  };
}

/** Serves `GET /metrics` from `registry` on host:port (0: a free port); resolves with the server and its URL. */
export async function serveMetrics(
  registry: Registry,
  host: string,
  port: number,
): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('only GET /metrics is served here\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return { server, url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics` };
}
