import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Table from 'cli-table3';
import { LAYOUTS, type Bench, type BenchOptions, type BenchResult, type Layout } from './types.js';

/**
 * Bots a bench may run at once: 300, so that the fleet bench shows where 300 bends (issue 21 §6); the embedded server
 * admits 200 players (its max-players), so no more than 200 of them can join.
 */
const MAX_BOTS = 300;
/** Worker processes the fleet bench starts at most in one row. */
const MAX_WORKERS = 8;
/** The tech-tree bench's generated worlds (terrain seeds 1 to this). */
const TECHTREE_WORLDS = 10;
/** Night runs at once at most (`--jobs`), each a server and a bot. */
const MAX_JOBS = 8;
/**
 * Benches that run only when named: the fleet needs PostgreSQL and the built CLI, and takes minutes a row; the night
 * runs a server per placement (30 rows of 10: some 3 hours in sequence, 35 minutes with --jobs 6); foresight starts
 * worker threads for its forks.
 */
const ON_REQUEST = new Set(['fleet.bench.ts', 'night.bench.ts', 'foresight.bench.ts']);

const HELP = `Usage: npm run bench [-- --json] [-- <filter>] [-- --bots N] [-- --fleet] [-- --server-seeds N] [-- --worlds 3,10] [-- --survival] [-- --profile FILE]
       npm run bench -- fleet [--bots 50,150,300] [--workers 1,2,3]

Runs every bench/*.bench.ts and prints a table of measured figures, with the
baseline measured in the same run and the ratio against it where one exists.
  --json     one JSON object per line: {"name","value","unit","baseline","ratio"}
  <filter>   only bench files whose name contains this text, e.g. "runtime"
  --bots N   how many bots the embedded fleet and the monitor feed run at once (default 50, at most ${MAX_BOTS})
  --fleet    of the embedded bench, only the fleet (skips TTFA per capability)
  --server-seeds N
             how many generated worlds the tech-tree bench runs on the embedded
             server (default 3, about two minutes each; 0 for SimWorld only)
  --worlds 3,10
             of the tech-tree bench, only these worlds (1 to 10), in SimWorld
             and on the server (with --server-seeds 0, SimWorld only): re-runs
             a world alone, its trace written as for every run
  --survival of the tech-tree bench, nights and mobs on: each world from dusk
             (12000 ticks) with the daylight cycle running and zombies,
             skeletons, creepers and spiders spawning in the dark (up to 5
             within 40 blocks, vanilla's monster density); each run prints its
             deaths, damage taken, fights, flights and shelters
  --profile FILE
             the embedded fleet writes a CPU profile of its plan phase to FILE
             (a .cpuprofile: open it in Chrome's DevTools or speedscope); the fleet bench, one of
             each worker process's life beside FILE, named for its row

fleet (runs only when named): one \`verbtree world\` process, a throwaway
PostgreSQL cluster and W \`verbtree worker\` processes, the bots spread over
them, each running the embedded fleet's plan enqueued through the journal; a
row per bot count and worker count, the 1-worker row its baseline. Needs the
built CLI (npm run build) and PostgreSQL's initdb/pg_ctl, as the tests do.
  --bots 50,150    bot counts, one row each (default 50,150,300)
  --workers 1,2,3  worker processes, one row each (default 1,2,3; the nine
                   rows of the defaults take about ten minutes a layout)
  --layout crowd,spread
                   crowd: every bot at the spawn, seeing every other, each
                   walking to its spot of a grid (walks lengthen with the
                   fleet); dense: each bot at a home of its own on a grid,
                   seeing every other, each walking the same 4 blocks (its
                   plans all act in the same second); spread: each bot at a
                   home of its own, 160 blocks apart, seeing none (default
                   crowd,spread, the crowd's rows first)
night: a real bot on the embedded server fells 3 logs at midnight among 0, 2, 4
or 8 hostiles (zombies; zombies and a skeleton; zombies and a creeper), bare-
handed, with a wooden sword, or with a stone sword and leather armour; a row per
encounter and kit: completed, deaths, median damage taken, median time.
  --placements N   placements of the mobs per row (default 10)
  --first-placement N
                   the first placement's number (default 0): 10 with
                   --placements 10 runs placements 10 to 19, ones the
                   default run never sees
  --rows a,b       only the rows whose label (e.g. zombies-4/stone) contains
                   one of these texts
  --jobs N         runs at once, each on its own server (default 1); after
                   the table, where the time went (server start, bot join,
                   encounter, teardown), the CPU and the event loop's delay
foresight: the stuck cases of issue 33 (a moat, a wall with one diggable block,
the nearest log out of reach, a recipe whose usual input is missing) generated
in SimWorld from a seed, each with and without branch exploration (forks in
worker threads): ok and time to truth per case, success rate and median time to
truth per kind and over all, false oks, the forks' wall time and the process CPU
while they ran; then the first of each kind on the embedded server (a real bot,
a server each run), rows of their own.
  --seed N         the seed the layouts are drawn from (default 33)
  --placements N   generated instances of each kind in SimWorld (default 2)
e.g. npm run bench -- embedded --fleet --bots 100
     npm run bench -- techtree --server-seeds 10
     npm run bench -- techtree --server-seeds 2 --survival
     npm run bench -- techtree --survival --worlds 3,10
     npm run bench -- fleet --bots 150 --workers 2
     npm run bench -- night --placements 2 --rows none,zombies-2/stone
     npm run bench -- foresight --seed 7 --placements 3`;

/** "50,150" as [50, 150]; undefined unless every number is whole and within [min, max]. */
function wholeNumbers(text: string | undefined, min: number, max: number): number[] | undefined {
  const numbers = (text ?? '').split(',').map(Number);
  return text && numbers.every((n) => Number.isInteger(n) && n >= min && n <= max) ? numbers : undefined;
}

function format(value: number | undefined): string {
  if (value === undefined) return '';
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);
}

interface Args extends BenchOptions {
  json: boolean;
  filters: string[];
}

/** The command line, or a message naming the bad argument and the fix. */
function parseArgs(argv: string[]): Args | string {
  const args: Args = { json: false, filters: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--json') args.json = true;
    else if (arg === '--fleet') args.fleetOnly = true;
    else if (arg === '--survival') args.survival = true;
    else if (arg === '--bots' || arg.startsWith('--bots=')) {
      const text = arg === '--bots' ? argv[++i] : arg.slice('--bots='.length);
      const bots = wholeNumbers(text, 1, MAX_BOTS);
      if (!bots)
        return `--bots must be whole numbers from 1 to ${MAX_BOTS}, commas between (got ${text ?? 'nothing'}), e.g. --bots 100 or --bots 50,150`;
      [args.bots] = bots;
      args.botCounts = bots;
    } else if (arg === '--workers' || arg.startsWith('--workers=')) {
      const text = arg === '--workers' ? argv[++i] : arg.slice('--workers='.length);
      const workers = wholeNumbers(text, 1, MAX_WORKERS);
      if (!workers)
        return `--workers must be whole numbers from 1 to ${MAX_WORKERS}, commas between (got ${text ?? 'nothing'}), e.g. --workers 1,2,3`;
      args.workers = workers;
    } else if (arg === '--server-seeds' || arg.startsWith('--server-seeds=')) {
      const text = arg === '--server-seeds' ? argv[++i] : arg.slice('--server-seeds='.length);
      const seeds = Number(text);
      if (!Number.isInteger(seeds) || seeds < 0 || seeds > 100)
        return `--server-seeds must be a whole number from 0 to 100 (got ${text ?? 'nothing'}), e.g. --server-seeds 10`;
      args.serverSeeds = seeds;
    } else if (arg === '--worlds' || arg.startsWith('--worlds=')) {
      const text = arg === '--worlds' ? argv[++i] : arg.slice('--worlds='.length);
      const worlds = wholeNumbers(text, 1, TECHTREE_WORLDS);
      if (!worlds)
        return `--worlds must be whole numbers from 1 to ${TECHTREE_WORLDS}, commas between (got ${text ?? 'nothing'}), e.g. --worlds 3,10`;
      args.worlds = worlds;
    } else if (arg === '--placements' || arg.startsWith('--placements=')) {
      const text = arg === '--placements' ? argv[++i] : arg.slice('--placements='.length);
      const [placements] = wholeNumbers(text, 1, 100) ?? [];
      if (placements === undefined || text?.includes(','))
        return `--placements must be a whole number from 1 to 100 (got ${text ?? 'nothing'}), e.g. --placements 2`;
      args.placements = placements;
    } else if (arg === '--first-placement' || arg.startsWith('--first-placement=')) {
      const text = arg === '--first-placement' ? argv[++i] : arg.slice('--first-placement='.length);
      const [first] = wholeNumbers(text, 0, 100_000) ?? [];
      if (first === undefined || text?.includes(','))
        return `--first-placement must be a whole number from 0 to 100000 (got ${text ?? 'nothing'}), e.g. --first-placement 10`;
      args.firstPlacement = first;
    } else if (arg === '--seed' || arg.startsWith('--seed=')) {
      const text = arg === '--seed' ? argv[++i] : arg.slice('--seed='.length);
      const seed = Number(text);
      if (!Number.isInteger(seed) || seed < 0)
        return `--seed must be a whole number, 0 or more (got ${text ?? 'nothing'}), e.g. --seed 7`;
      args.seed = seed;
    } else if (arg === '--layout' || arg.startsWith('--layout=')) {
      const text = arg === '--layout' ? argv[++i] : arg.slice('--layout='.length);
      const layouts = (text ?? '').split(',');
      if (!text || !layouts.every((l): l is Layout => (LAYOUTS as readonly string[]).includes(l)))
        return `--layout must be crowd, dense or spread, several with commas (got ${text ?? 'nothing'}), e.g. --layout spread`;
      args.layouts = layouts;
    } else if (arg === '--jobs' || arg.startsWith('--jobs=')) {
      const text = arg === '--jobs' ? argv[++i] : arg.slice('--jobs='.length);
      const [jobs] = wholeNumbers(text, 1, MAX_JOBS) ?? [];
      if (jobs === undefined || text?.includes(','))
        return `--jobs must be a whole number from 1 to ${MAX_JOBS} (got ${text ?? 'nothing'}), e.g. --jobs 2`;
      args.jobs = jobs;
    } else if (arg === '--rows' || arg.startsWith('--rows=')) {
      const text = arg === '--rows' ? argv[++i] : arg.slice('--rows='.length);
      if (!text) return '--rows needs row labels or parts of them, commas between, e.g. --rows zombies-2/stone,none';
      args.rows = text.split(',');
    } else if (arg === '--profile' || arg.startsWith('--profile=')) {
      const file = arg === '--profile' ? argv[++i] : arg.slice('--profile='.length);
      if (!file) return '--profile needs a file to write the CPU profile to, e.g. --profile fleet.cpuprofile';
      args.profile = file;
    } else if (arg.startsWith('--')) return `unknown option ${arg}; see --help`;
    else args.filters.push(arg);
  }
  return args;
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    console.error(`bench: ${args}`);
    return 2;
  }
  const { json, filters, ...options } = args;
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const files = (await readdir(dir))
    .filter((file) => file.endsWith('.bench.ts'))
    .filter((file) => (filters.length === 0 ? !ON_REQUEST.has(file) : filters.some((f) => file.includes(f))))
    .sort();
  const table = new Table({ head: ['bench', 'value', 'unit', 'baseline', 'ratio'] });
  for (const file of files) {
    if (!json) process.stderr.write(`running ${file}…\n`);
    const { default: bench } = (await import(pathToFileURL(`${dir}/${file}`).href)) as { default: Bench };
    const results: BenchResult[] = await bench(options);
    for (const result of results) {
      if (json) console.log(JSON.stringify(result));
      else table.push([result.name, format(result.value), result.unit, format(result.baseline), format(result.ratio)]);
    }
  }
  if (!json) console.log(table.toString());
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
