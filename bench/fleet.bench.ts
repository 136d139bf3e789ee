import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { LOOP_STATS_ENV, LOOP_STATS_PREFIX } from '../src/cli/worker/loop-stats.js';
import { openJournal } from '../src/journal/open.js';
import { startPostgres, type PostgresCluster } from '../test/helpers/postgres.js';
import { DEFAULT_LEASE_MS, JOINS_AT_ONCE } from '../src/cli/commands/worker.js';
import { DEFAULT_CLAIMS_PER_PASS, leaseTiming } from '../src/cli/worker/fleet-worker.js';
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../src/world/mineflayer/connect.js';
import { percentile } from './embedded-support.js';
import { describeLimits, fleetLimits, type FleetLimits, type FleetShape } from './fleet-limits.js';
import { CliProcess, cleanUpOnExit } from './fleet-processes.js';
import { layoutPlan, layoutWorldFolder } from './fleet-layout.js';
import { pathTallyArgs, reportPathTally } from './fleet-paths.js';
import { writeTallyArgs, reportWriteTally } from './fleet-writes.js';
import { DEFAULT_LAYOUTS, type BenchOptions, type BenchResult, type Layout } from './types.js';

/**
 * The fleet across processes: one `verbtree world`, W `verbtree worker` processes sharing a throwaway PostgreSQL
 * journal, `bots` bots spread over them (worker k holds bots k, k+W, …), each bot where its layout puts it with its
 * layout's plan (walk, place a block, dig it: fleet-layout.ts), enqueued through the journal once every bot has
 * joined. A plan's end is what the journal says of it; TTFA is the steps' journaled ttfa_ms. CPU is read from /proc
 * for each process over the plan phase; each worker reports its event-loop delay over that phase (VERBTREE_LOOP_STATS, SIGUSR2). The row of
 * one worker, measured in the same run, is the baseline of the others. How long it waits for the joins and for the
 * plans follows from the row's size and the workers' claim cap (fleet-limits.ts), printed before each row. With
 * FLEET_PATH_TALLY=1 it also prints each row's path searches per plan (fleet-paths.ts), with FLEET_WRITE_TALLY=1 its
 * socket writes (fleet-writes.ts).
 */

const POLL_MS = 250;
const ENDED = new Set(['succeeded', 'failed', 'rejected']);

interface Row {
  bots: number;
  workers: number;
  layout: Layout;
  limits: FleetLimits;
  joined: number;
  /** From the workers' start to the last bot joined (or the join limit). */
  joinMs: number;
  completed: number;
  failedByCode: Record<string, number>;
  unfinished: number;
  wallMs: number;
  ttfas: number[];
  /** From a plan's enqueue to its first run's start (ms, both on the journal's clock), for each plan that started. */
  startWaits: number[];
  loopP99: number[];
  /** Transactions committed on the journal's database during the plan phase (every process's, reads included). */
  transactions: number;
  workerCpuMs: number;
  /** The workers' resident memory at the end of the plan phase (MB, all workers). */
  workerRssMb: number;
  serverCpuMs: number;
  /** Bots the workers gave up during the row, by the fence's cause (every cause, 0 included). */
  fencedByCause: Record<FenceCause, number>;
}

export default async function fleet(options: BenchOptions): Promise<BenchResult[]> {
  // The issue's matrix unless told otherwise: 50, 150 and 300 bots over 1, 2 and 3 workers (about ten minutes here).
  const botCounts = options.botCounts ?? [50, 150, 300];
  const workerCounts = options.workers ?? [1, 2, 3];
  const layouts = options.layouts ?? DEFAULT_LAYOUTS;
  const cluster = startPostgres();
  const folder = mkdtempSync(join(tmpdir(), 'verbtree-fleet-bench-'));
  const scenario = join(folder, 'fleet.json');
  writeFileSync(scenario, JSON.stringify({ name: 'bench-fleet', bot: { inventory: { dirt: 4 } } }));
  const postgres = await cluster;
  const release = cleanUpOnExit(() => {
    postgres.stop();
    rmSync(folder, { recursive: true, force: true });
  });
  try {
    const results: BenchResult[] = [];
    for (const layout of layouts)
      for (const bots of botCounts) {
        let baseline: Row | undefined;
        for (const workers of workerCounts) {
          process.stderr.write(`fleet: ${bots} bots over ${workers} worker(s), ${layout}…\n`);
          const shape = fleetShape(bots, workers);
          const limits = fleetLimits(shape);
          process.stderr.write(`fleet: ${describeLimits(shape, limits)}\n`);
          const row = await runRow(postgres, { scenario, folder }, { bots, workers, layout, limits }, options.profile);
          if (workers === 1) baseline = row;
          results.push(...figures(row, baseline));
        }
      }
    return results;
  } finally {
    release();
    postgres.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The row's fleet as its workers run it: the worker command's defaults, which the bench passes explicitly. */
function fleetShape(bots: number, workers: number): FleetShape {
  return {
    bots,
    workers,
    claimsPerPass: DEFAULT_CLAIMS_PER_PASS,
    claimEveryMs: leaseTiming(DEFAULT_LEASE_MS).claimEveryMs,
    joinsAtOnce: JOINS_AT_ONCE,
    loginMs: DEFAULT_CONNECT_TIMEOUT_MS,
  };
}

/**
 * `node --cpu-prof` for a worker or the world server's process, when `--profile` is given: its whole life's CPU
 * profile (joins included), written as it exits beside `--profile`'s file, named for its row and process
 * (`fleet-crowd-50bots-1w-bench-0.cpuprofile` and `fleet-crowd-50bots-1w-server.cpuprofile` for `--profile fleet`).
 */
function profiledAs(profile: string | undefined, name: string): string[] {
  if (profile === undefined) return [];
  const stem = basename(profile).replace(/\.cpuprofile$/, '');
  return ['--cpu-prof', '--cpu-prof-dir', dirname(resolve(profile)), '--cpu-prof-name', `${stem}-${name}.cpuprofile`];
}

/**
 * A world's args: the crowd's new world, or the layout's folder, its save holding each bot at its home (saved hourly:
 * the bench's saves are not its load).
 */
function worldArgs(layout: Layout, files: { scenario: string; folder: string }, names: readonly string[]): string[] {
  const args = ['world', '--scenario', files.scenario, '--port', '0', '--json'];
  const worldFolder = layoutWorldFolder(
    layout,
    join(files.folder, `world-${layout}-${names.length}-${Date.now()}`),
    names,
    files.scenario,
  );
  return worldFolder === null ? args : [...args, '--world-folder', worldFolder, '--save-every-ms', '3600000'];
}

async function runRow(
  postgres: PostgresCluster,
  files: { scenario: string; folder: string },
  { bots, workers, layout, limits }: Pick<Row, 'bots' | 'workers' | 'layout' | 'limits'>,
  profile: string | undefined,
): Promise<Row> {
  const url = await postgres.database();
  const journal = await openJournal(url);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const names = Array.from({ length: bots }, (_, i) => `fleet_${i}`);
  const rowName = `${layout}-${bots}bots-${workers}w`;
  const world = new CliProcess('world', worldArgs(layout, files, names), {}, profiledAs(profile, `${rowName}-server`));
  const fleetProcesses: CliProcess[] = [];
  try {
    const { port } = JSON.parse(await world.line((line) => line.startsWith('{'))) as { port: number };
    for (let k = 0; k < workers; k++) {
      const own = names.filter((_, i) => i % workers === k);
      const args = ['worker', '--journal', url, '--host', '127.0.0.1', '--port', String(port)];
      args.push('--lease-ms', String(DEFAULT_LEASE_MS), '--claims-per-pass', String(DEFAULT_CLAIMS_PER_PASS));
      args.push('--capacity', String(own.length), '--node-id', `bench-${k}`, ...own.flatMap((b) => ['--bot', b]));
      const profiled = [...pathTallyArgs(), ...writeTallyArgs(), ...profiledAs(profile, `${rowName}-bench-${k}`)];
      fleetProcesses.push(new CliProcess(`worker bench-${k}`, args, { [LOOP_STATS_ENV]: '1' }, profiled));
    }
    const workersStarted = performance.now();
    const joined = await allJoined(fleetProcesses, bots, limits.joinLimitMs);
    const joinMs = performance.now() - workersStarted;
    const cpuBefore = fleetProcesses.map((w) => w.usage.cpuMs());
    const serverBefore = world.usage.cpuMs();
    for (const w of fleetProcesses) w.signal('SIGUSR2');
    await Promise.all(fleetProcesses.map((w) => w.line((line) => line.startsWith(LOOP_STATS_PREFIX))));
    const committedBefore = await transactionsCommitted(db);
    const started = performance.now();
    for (const [i, bot] of names.entries()) {
      const body = { planId: `fleet-${i}`, intentId: 'bench', steps: layoutPlan(layout, i, bots) };
      await journal.enqueuePlan({ planId: body.planId, intentId: 'bench', bot, body });
    }
    const statuses = await plansEnded(db, bots, started + limits.planLimitMs);
    const wallMs = performance.now() - started;
    const transactions = (await transactionsCommitted(db)) - committedBefore;
    const workerCpuMs = fleetProcesses.reduce((sum, w, k) => sum + w.usage.cpuMs() - cpuBefore[k]!, 0);
    const workerRssMb = fleetProcesses.reduce((sum, w) => sum + w.usage.rssMb(), 0);
    const serverCpuMs = world.usage.cpuMs() - serverBefore;
    const loopP99 = await loopDelayP99(fleetProcesses);
    const fencedByCause = reportFences(fleetProcesses);
    reportPathTally(fleetProcesses, layout, bots);
    reportWriteTally(fleetProcesses, bots);
    const ended = await outcomes(db, statuses);
    return {
      bots,
      workers,
      layout,
      limits,
      joined,
      joinMs,
      wallMs,
      workerCpuMs,
      workerRssMb,
      serverCpuMs,
      loopP99,
      transactions,
      fencedByCause,
      ...ended,
    };
  } finally {
    await Promise.all(fleetProcesses.map((w) => w.stop()));
    await world.stop();
    await db.end();
    await journal.close();
  }
}

/** Transactions committed so far on the bench's database (PostgreSQL's own count, pg_stat_database). */
async function transactionsCommitted(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(rows[0]!.n);
}

/** How many bots joined (each worker says "holding <bot> …" once its bot is in the world), within `limitMs`. */
async function allJoined(fleetProcesses: readonly CliProcess[], bots: number, limitMs: number): Promise<number> {
  // A bot fenced and claimed again says "holding" once more: count bots, not lines.
  const count = () =>
    new Set(fleetProcesses.flatMap((w) => w.lines.flatMap((l) => / holding (fleet_\d+) /.exec(l)?.[1] ?? []))).size;
  const deadline = performance.now() + limitMs;
  while (count() < bots && performance.now() < deadline) await new Promise((r) => setTimeout(r, POLL_MS));
  if (count() < bots) process.stderr.write(`fleet: ${count()} of ${bots} bots joined within ${limitMs} ms\n`);
  return count();
}

/** Each plan's status once all have ended, or as they stand at `deadline`. */
async function plansEnded(db: pg.Client, bots: number, deadline: number): Promise<Map<string, string>> {
  for (;;) {
    const { rows } = await db.query<{ plan_id: string; status: string }>(
      "SELECT plan_id, status FROM plans WHERE plan_id LIKE 'fleet-%'",
    );
    const statuses = new Map(rows.map((r) => [r.plan_id, r.status]));
    const ended = rows.filter((r) => ENDED.has(r.status)).length;
    if (ended === bots || performance.now() >= deadline) return statuses;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function outcomes(
  db: pg.Client,
  statuses: Map<string, string>,
): Promise<Pick<Row, 'completed' | 'failedByCode' | 'unfinished' | 'ttfas' | 'startWaits'>> {
  const { rows: runs } = await db.query<{ plan_id: string; code: string | null }>(
    'SELECT DISTINCT ON (plan_id) plan_id, code FROM runs ORDER BY plan_id, id DESC',
  );
  const codeOf = new Map(runs.map((r) => [r.plan_id, r.code]));
  let completed = 0;
  let unfinished = 0;
  const failedByCode: Record<string, number> = {};
  for (const [planId, status] of statuses) {
    if (status === 'succeeded') completed++;
    else if (!ENDED.has(status)) unfinished++;
    else {
      const code = codeOf.get(planId) ?? status;
      failedByCode[code] = (failedByCode[code] ?? 0) + 1;
    }
  }
  await reportUnfinished(db, statuses);
  await reportFailedSteps(db);
  const { rows } = await db.query<{ ttfa_ms: number }>(
    "SELECT ttfa_ms FROM steps WHERE plan_id LIKE 'fleet-%' AND ttfa_ms IS NOT NULL ORDER BY ttfa_ms",
  );
  const { rows: waits } = await db.query<{ wait: number }>(
    "SELECT MIN(r.started_at) - p.created_at AS wait FROM plans p JOIN runs r USING (plan_id) WHERE p.plan_id LIKE 'fleet-%' GROUP BY p.plan_id, p.created_at ORDER BY wait",
  );
  const startWaits = waits.map((r) => Number(r.wait));
  return { completed, failedByCode, unfinished, ttfas: rows.map((r) => Number(r.ttfa_ms)), startWaits };
}

/** Where each plan that did not end stands (its status, and the step under way), on stderr: queued or mid-step. */
async function reportUnfinished(db: pg.Client, statuses: Map<string, string>): Promise<void> {
  const unfinished = [...statuses].filter(([, status]) => !ENDED.has(status));
  if (unfinished.length === 0) return;
  const { rows } = await db.query<{ plan_id: string; step_id: string; status: string }>(
    "SELECT plan_id, step_id, status FROM steps WHERE plan_id LIKE 'fleet-%' AND status NOT IN ('succeeded', 'pending')",
  );
  const at = new Map(rows.map((r) => [r.plan_id, `${r.step_id} ${r.status}`]));
  const count = new Map<string, number>();
  for (const [planId, status] of unfinished) {
    const where = `${status}${at.has(planId) ? `, at ${at.get(planId)}` : ''}`;
    count.set(where, (count.get(where) ?? 0) + 1);
  }
  process.stderr.write(
    `fleet: ${unfinished.length} plans unfinished: ${[...count].map(([where, n]) => `${n} ${where}`).join('; ')}\n`,
  );
}

/** Which steps failed and why (its code and detail, numbers as N), and what ended their attempts, counted, on stderr. */
async function reportFailedSteps(db: pg.Client): Promise<void> {
  const { rows } = await db.query<{ why: string; n: string }>(
    "SELECT step_id || ' ' || COALESCE(outcome_code, '?') || ': ' || regexp_replace(COALESCE(outcome_detail, ''), '[0-9.]+', 'N', 'g') AS why, count(*) AS n FROM steps WHERE plan_id LIKE 'fleet-%' AND status = 'failed' GROUP BY 1 ORDER BY 2 DESC LIMIT 8",
  );
  if (rows.length === 0) return;
  process.stderr.write(`fleet: steps failed: ${rows.map((r) => `${r.n} × ${r.why.slice(0, 200)}`).join('; ')}\n`);
  // A step that ran out of time failed by its attempts: what ended each of them.
  const { rows: attempts } = await db.query<{ why: string; n: string }>(
    "SELECT a.step_id || ' ' || COALESCE(a.outcome, '?') || ': ' || regexp_replace(COALESCE(a.detail, ''), '[0-9.]+', 'N', 'g') AS why, count(*) AS n FROM attempts a JOIN steps s USING (plan_id, step_id) WHERE a.plan_id LIKE 'fleet-%' AND s.status = 'failed' GROUP BY 1 ORDER BY 2 DESC LIMIT 8",
  );
  process.stderr.write(
    `fleet: attempts of the failed steps: ${attempts.map((r) => `${r.n} × ${r.why.slice(0, 200)}`).join('; ')}\n`,
  );
}

/** The causes a worker names when it gives a bot up (issue 34 counts them apart). */
const FENCE_CAUSES = ['lease_lost', 'renewal_late', 'released', 'failed'] as const;
type FenceCause = (typeof FENCE_CAUSES)[number];

/**
 * Why workers gave bots up during the row ("fenced <bot> (epoch n, <cause>): <code>: <reason>"): counted by cause for
 * the table, and on stderr by cause and then by reason.
 */
function reportFences(fleetProcesses: readonly CliProcess[]): Record<FenceCause, number> {
  const byCause = new Map<string, number>();
  const byReason = new Map<string, number>();
  for (const w of fleetProcesses)
    for (const line of w.lines) {
      const fenced = / fenced \S+ \(epoch \d+, (\w+)\): (.*)$/.exec(line);
      if (!fenced) continue;
      const reason = fenced[2]!.replace(/\d+/g, 'N');
      byCause.set(fenced[1]!, (byCause.get(fenced[1]!) ?? 0) + 1);
      byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    }
  if (byCause.size > 0) {
    const list = (count: Map<string, number>) => [...count].map(([why, n]) => `${n} × ${why}`).join('; ');
    process.stderr.write(`fleet: bots fenced by cause: ${list(byCause)}; by reason: ${list(byReason)}\n`);
  }
  return Object.fromEntries(FENCE_CAUSES.map((cause) => [cause, byCause.get(cause) ?? 0])) as Record<
    FenceCause,
    number
  >;
}

/** Each worker's event-loop delay p99 (ms) since the SIGUSR2 that opened the plan phase; NaN for a worker gone. */
async function loopDelayP99(fleetProcesses: readonly CliProcess[]): Promise<number[]> {
  const reports = fleetProcesses.map((w) => w.lines.filter((l) => l.startsWith(LOOP_STATS_PREFIX)).length);
  for (const w of fleetProcesses) w.signal('SIGUSR2');
  return Promise.all(
    fleetProcesses.map(async (w, k) => {
      let seen = 0;
      const line = await w.line((l) => l.startsWith(LOOP_STATS_PREFIX) && ++seen > reports[k]!).catch(() => null);
      if (line === null) {
        // A worker gone during the row has no delay to report: its row says so instead of ending the bench.
        process.stderr.write(`fleet: ${w.label} exited before reporting its event-loop delay\n`);
        return Number.NaN;
      }
      return (JSON.parse(line.slice(LOOP_STATS_PREFIX.length)) as { p99: number }).p99;
    }),
  );
}

function figures(row: Row, baseline: Row | undefined): BenchResult[] {
  const { bots, workers } = row;
  // The crowd's rows keep their names of before the spread layout, so that older tables compare.
  const at = `fleet ${bots} bots, ${workers} worker${workers === 1 ? '' : 's'}${row.layout === 'crowd' ? '' : `, ${row.layout}`}`;
  const base = workers === 1 ? undefined : baseline;
  const versus = (name: string, unit: string, of: (r: Row) => number): BenchResult => {
    const value = of(row);
    if (!base) return { name: `${at}: ${name}`, value, unit };
    const b = of(base);
    return { name: `${at}: ${name}`, value, unit, baseline: b, ...(b === 0 ? {} : { ratio: value / b }) };
  };
  const failed = (r: Row) => Object.values(r.failedByCode).reduce((s, n) => s + n, 0);
  return [
    { name: `${at}: bots joined`, value: row.joined, unit: 'bots', baseline: bots },
    {
      name: `${at}: join time (claim cap alone: ${row.limits.claimBoundMs / 1000} s)`,
      value: row.joinMs,
      unit: 'ms',
      baseline: row.limits.claimBoundMs,
    },
    versus('plans completed (navigate+place+dig)', 'plans', (r) => r.completed),
    versus('plans failed', 'plans', failed),
    ...Object.entries(row.failedByCode).map(([code, n]) => ({
      name: `${at}: plans failed with ${code}`,
      value: n,
      unit: 'plans',
    })),
    ...FENCE_CAUSES.map((cause) => ({
      name: `${at}: bots fenced, ${cause}`,
      value: row.fencedByCause[cause],
      unit: 'bots',
    })),
    versus(`plans unfinished ${row.limits.planLimitMs / 1000} s after enqueue`, 'plans', (r) => r.unfinished),
    versus('wall time of the plans', 'ms', (r) => r.wallMs),
    versus(`plan start after its enqueue p95 (n=${row.startWaits.length})`, 'ms', (r) => percentile(r.startWaits, 95)),
    versus(`ttfa p95 (n=${row.ttfas.length})`, 'ms', (r) => percentile(r.ttfas, 95)),
    ...row.loopP99.map((p99, k) => ({
      name: `${at}: worker ${k} event-loop delay p99`,
      value: p99,
      unit: 'ms',
      ...(base ? { baseline: base.loopP99[0]!, ratio: p99 / base.loopP99[0]! } : {}),
    })),
    versus('journal transactions per plan', 'transactions', (r) => r.transactions / bots),
    versus('workers CPU per joined bot per plan', 'ms', (r) => r.workerCpuMs / r.joined),
    versus('workers memory per joined bot', 'MB', (r) => r.workerRssMb / r.joined),
    versus('server CPU per joined bot per plan', 'ms', (r) => r.serverCpuMs / r.joined),
    versus('server CPU load during the plans', '% of a core', (r) => (r.serverCpuMs / r.wallMs) * 100),
  ];
}
