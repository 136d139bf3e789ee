import Table from 'cli-table3';
import { createDefaultRegistry } from '../capabilities/index.js';
import { loadTrees } from '../src/executor/assemble.js';
import { countByKind } from '../src/executor/safety/index.js';
import { inPool, oneAtATime } from './night-pool.js';
import { type Encounter, type Kit, type RunFigures, runOnce } from './night-run.js';
import { encounterLag, median, timingReport, timingResults } from './night-timings.js';
import type { BenchOptions, BenchResult } from './types.js';

/**
 * A night's work under attack (issue 30 §5): a real bot on the embedded server, at midnight with the mobs' AI on, sent
 * to fell 3 logs from a trunk 12 blocks east while hostiles stand 8 to 16 blocks around it (night-run.ts). One row per
 * encounter (0, 2, 4 or 8 hostiles: zombies; zombies and a skeleton; zombies and a creeper) and kit (bare hands; a
 * wooden sword; a stone sword and leather armour, put on first), each over N placements of the mobs (`--placements`,
 * default 10; seeded, the same every run). A row: how many runs completed the task (the plan ended ok), deaths (the
 * server held the bot at 0 health, or it respawned between two samples), the median damage taken (every drop of the
 * server's health summed) and the median time.
 * `--rows zombies-2/stone,creeper` runs only the rows whose label contains one of the texts; `--jobs N` runs N runs at
 * once, each on its own server; `NIGHT_VERBOSE=1` prints each run's events and every change of the bot's health with
 * the mobs around it (how a death came about). After the table, where the time went: each phase of a run summed over
 * the runs, the wall time, the process's CPU and how late its event loop ran while any run was in its encounter (a
 * server's tick and the bot's moves are timers on it: a late loop slows the game, not only the bench). Runs side by
 * side set up one at a time (a server's start and its bot's join), so none holds up the loop of another's encounter.
 */

const PLACEMENTS = 10;

const LEATHER = ['leather_helmet', 'leather_chestplate', 'leather_leggings', 'leather_boots'];
const KITS: Kit[] = [
  { key: 'bare', inventory: {}, wear: [] },
  { key: 'wooden', inventory: { wooden_sword: 1 }, wear: [] },
  { key: 'stone', inventory: { stone_sword: 1, ...Object.fromEntries(LEATHER.map((i) => [i, 1])) }, wear: LEATHER },
];

function encounters(): Encounter[] {
  const list: Encounter[] = [{ key: 'none-0', mobs: [] }];
  for (const n of [2, 4, 8]) {
    const zombies = Array.from({ length: n - 1 }, () => 'zombie');
    list.push({ key: `zombies-${n}`, mobs: [...zombies, 'zombie'] });
    list.push({ key: `skeleton-${n}`, mobs: [...zombies, 'skeleton'] });
    list.push({ key: `creeper-${n}`, mobs: [...zombies, 'creeper'] });
  }
  return list;
}

interface Row {
  label: string;
  encounter: Encounter;
  kit: Kit;
}

function rowsAsked(options: BenchOptions): Row[] {
  const rows: Row[] = [];
  for (const encounter of encounters())
    for (const kit of KITS) {
      const label = `${encounter.key}/${kit.key}`;
      if (!options.rows || options.rows.some((text) => label.includes(text))) rows.push({ label, encounter, kit });
    }
  return rows;
}

export default async function night(options: BenchOptions): Promise<BenchResult[]> {
  const placements = options.placements ?? PLACEMENTS;
  const first = options.firstPlacement ?? 0;
  const jobs = options.jobs ?? 1;
  const loaded = await loadTrees(createDefaultRegistry());
  const rows = rowsAsked(options);
  const lag = encounterLag();
  const side = { setUp: oneAtATime(), encounter: lag.during };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const runs = await inPool(
    rows.flatMap((row) =>
      Array.from({ length: placements }, (_, p) => () => runOnce(loaded, row.encounter, row.kit, first + p, side)),
    ),
    jobs,
  );
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const table = new Table({
    head: ['row', 'hostiles', 'completed', 'deaths', 'median damage', 'median time (s)', 'why not completed'],
  });
  const results: BenchResult[] = [];
  rows.forEach(({ label, encounter }, r) => {
    const row = runs.slice(r * placements, (r + 1) * placements);
    const completed = row.filter((run) => run.completed).length;
    const deaths = row.reduce((sum, run) => sum + run.deaths, 0);
    const damage = median(row.map((run) => run.damage));
    const seconds = median(row.map((run) => run.seconds));
    const hostiles = encounter.mobs.length === 0 ? 'none' : countByKind(encounter.mobs.map((name) => ({ name })));
    const why = failureCodes(row);
    table.push([label, hostiles, `${completed}/${placements}`, deaths, damage.toFixed(1), seconds.toFixed(1), why]);
    results.push(
      { name: `night ${label}: completed`, value: (100 * completed) / placements, unit: '%' },
      { name: `night ${label}: deaths`, value: deaths, unit: 'deaths' },
      { name: `night ${label}: median damage taken`, value: damage, unit: 'health' },
      { name: `night ${label}: median time`, value: seconds, unit: 's' },
    );
  });
  process.stderr.write(`${table.toString()}\n`);
  const timing = {
    runs: runs.length,
    jobs,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    ...lag.figures(),
  };
  process.stderr.write(`${timingReport(runs, timing)}\n`);
  return [...results, ...timingResults(runs, timing)];
}

/** The failure codes of a row's runs that did not complete, most common first: "preempted 6, escalation_exhausted 2". */
function failureCodes(runs: readonly RunFigures[]): string {
  const counts = new Map<string, number>();
  for (const { failure } of runs) if (failure !== undefined) counts.set(failure, (counts.get(failure) ?? 0) + 1);
  return [...counts]
    .sort(([a, m], [b, n]) => n - m || a.localeCompare(b))
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
}
