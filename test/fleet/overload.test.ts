import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import { FleetBots } from '../../src/operations/fleet-bots.js';
import {
  plansEnded,
  queue,
  startWorker,
  stopWorker,
  until,
  walkFor,
  type Worker,
  useFleetWorld,
} from './fleet-helpers.js';

/*
 * Issue 34, §1 and §4: admission by headroom, never failure by load, and every worker's Prometheus metrics. Real worker
 * processes on this file's PostgreSQL cluster and embedded server, beside a child process that spins a core.
 */

const world = useFleetWorld();

/** A lease long enough that a loaded machine's late loop is no reason to fence (the test is about admission). */
const LEASE = ['--lease-ms', '10000'];

/** The metrics URL a worker prints at start. */
async function metricsUrl(worker: Worker): Promise<string> {
  const said = await until(
    'the worker serving its metrics',
    () => worker.out(),
    (out) => /metrics on (\S+)/.test(out),
    60_000,
  );
  return /metrics on (\S+)/.exec(said)![1]!;
}

/** One series' value in a Prometheus text page (0 when it is absent). */
function valueOf(page: string, series: string): number {
  const line = page.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** The metric names a dashboard's queries name, each as its /metrics page declares it (a histogram's, not its _bucket). */
function dashboardMetrics(): string[] {
  const dashboard = JSON.parse(readFileSync('examples/grafana/fleet-dashboard.json', 'utf8')) as {
    panels: { targets: { expr: string }[] }[];
  };
  const names = dashboard.panels.flatMap((p) => p.targets.flatMap((t) => t.expr.match(/verbtree_[a-z_]+/g) ?? []));
  return [...new Set(names.map((n) => n.replace(/_(bucket|sum|count)$/, '')))].sort();
}

describe('verbtree worker: admission by headroom', () => {
  it('a worker beside a CPU hog, with no headroom, holds one bot, sheds none and fails no plan; a worker joining later takes the bots it refused; its metrics hold every series the Grafana dashboard names', async () => {
    const url = await world.cluster.database();
    const journal = await openJournal(url);
    const hog = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    const workers: Worker[] = [];
    try {
      const bots = ['oa', 'ob'];
      const plans = bots.map((bot, i) => walkFor(bot, i, 1));
      for (const plan of plans) await queue(journal, plan.planId.split('-')[0]!, plan);
      // --max-cpu 0 is never met: this worker never has headroom, whatever the machine's load, so what it does past
      // its headroom is what the test sees, every time.
      const busy = startWorker(url, world.server.port, 'busy', bots, 2, '1.21.4', [...LEASE, '--max-cpu', '0']);
      workers.push(busy);
      const busyMetrics = await metricsUrl(busy);
      await until(
        'the busy worker refusing claims and running its one bot’s plans',
        () => fetch(busyMetrics).then((r) => r.text()),
        (page) => valueOf(page, 'verbtree_worker_claims_refused_total') > 0,
      );
      const held = (await journal.listBots()).filter((b) => b.held);
      expect(held.map((b) => b.holder)).toEqual(['busy']);
      // The bots no worker holds: their plans wait, saying why (what /api/bots, list_bots and the monitor show).
      const samples = await new FleetBots(journal).samples();
      for (const sample of samples.filter((s) => !s.held))
        expect(sample.waiting).toMatchObject({
          reason: 'no_holder',
          detail: 'no worker holds the bot (each takes bots only while it has headroom and capacity)',
        });

      const late = startWorker(url, world.server.port, 'late', [], 2, '1.21.4', LEASE);
      workers.push(late);
      expect(
        await plansEnded(
          journal,
          plans.map((p) => p.planId),
          150_000,
        ),
      ).toEqual(plans.map(() => 'succeeded'));
      const holders = (await journal.listBots()).map((b) => b.holder);
      expect(holders.filter((h) => h === 'busy')).toHaveLength(1);
      expect(holders.filter((h) => h === 'late')).toHaveLength(1);

      const page = await fetch(busyMetrics).then((r) => r.text());
      const said = await busy.out();
      for (const cause of ['lease_lost', 'renewal_late', 'released', 'failed'])
        expect(valueOf(page, `verbtree_worker_fences_total{cause="${cause}"}`), `${cause}: ${said}`).toBe(0);
      expect(valueOf(page, 'verbtree_worker_bots_held')).toBe(1);
      expect(valueOf(page, 'verbtree_worker_headroom')).toBe(0);
      expect(valueOf(page, 'verbtree_journal_transaction_seconds_count{pool="bots"}')).toBeGreaterThan(0);
      const declared = new Set([...page.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
      const named = dashboardMetrics();
      expect(named.length).toBeGreaterThan(5);
      expect(named.filter((name) => !declared.has(name))).toEqual([]);
      expect(said).not.toMatch(/fenced /);
    } finally {
      hog.kill('SIGKILL');
      for (const worker of workers) await stopWorker(worker);
      await journal.close();
    }
  }, 240_000);
});
