/** One measured figure; `baseline` and `ratio` are set where a baseline was measured in the same run. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
}

/** Options from the command line; a bench reads those it has a use for. */
export interface BenchOptions {
  /** `--bots N`: how many bots the embedded fleet and the monitor feed run at once. */
  bots?: number;
  /** `--bots 50,150`: every count given; the fleet bench runs a row for each (the others take `bots`, the first). */
  botCounts?: number[];
  /** `--workers 1,2,3`: how many worker processes each row of the fleet bench spreads its bots over. */
  workers?: number[];
  /** `--layout crowd,spread`: the fleet bench's layouts, one set of rows each (fleet-layout.ts). */
  layouts?: Layout[];
  /** `--fleet`: of the embedded bench, only the fleet. */
  fleetOnly?: boolean;
  /**
   * `--server-seeds N`: how many generated worlds the tech-tree bench runs on the embedded server (0 for SimWorld
   * only).
   */
  serverSeeds?: number;
  /**
   * `--worlds 3,10`: of the tech-tree bench, only these worlds, in SimWorld and on the embedded server (with
   * `--server-seeds 0`, SimWorld only).
   */
  worlds?: number[];
  /**
   * `--survival`: the tech-tree bench's worlds from dusk with the daylight cycle running and hostiles spawning at
   * night.
   */
  survival?: boolean;
  /** `--profile FILE`: the embedded fleet writes a CPU profile of its plan phase (all bots at work) to FILE. */
  profile?: string;
  /**
   * `--placements N`: how many placements of the mobs each row of the night bench runs; of the foresight bench, how
   * many generated instances of each hard case.
   */
  placements?: number;
  /** `--first-placement N`: the night bench's first placement (default 0), each a seeded layout of its mobs. */
  firstPlacement?: number;
  /** `--rows a,b`: of the night bench, only the rows whose label contains one of these texts. */
  rows?: string[];
  /** `--jobs N`: of the night bench, how many runs go at once, each on its own server. */
  jobs?: number;
  /** `--seed N`: the seed the foresight bench draws its hard cases from. */
  seed?: number;
}

export type Bench = (options: BenchOptions) => Promise<BenchResult[]>;

/**
 * Where the fleet bench's bots stand (fleet-layout.ts): `crowd`, all at the spawn; `dense`, each at a home of its own
 * on a grid in every other's sight; or `spread`, each at a home of its own, out of every other's sight. The default
 * runs the crowd and the spread (issue 34 §2); the dense grid is asked for by name.
 */
export type Layout = 'crowd' | 'dense' | 'spread';
export const LAYOUTS: readonly Layout[] = ['crowd', 'dense', 'spread'];
export const DEFAULT_LAYOUTS: readonly Layout[] = ['crowd', 'spread'];
