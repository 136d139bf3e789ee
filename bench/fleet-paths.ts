import type { CliProcess } from './fleet-processes.js';
import { layoutPlan, layoutHome } from './fleet-layout.js';
import type { Layout } from './types.js';
import { workerTally } from './worker-tally.js';

/*
 * The fleet bench's count of path searches (issue 34 §2: what grows with the crowd), on request: with
 * FLEET_PATH_TALLY=1 each worker loads fleet-path-tally.mjs, and after each row the bench prints, per plan, the A*
 * searches, the nodes they expanded, their time, the path resets by reason, and the walk each plan asks for; and the
 * bodies' physics time against the wall time of the plan phase, for all the bots held and for the bots walking (a
 * body behind the wall clock walks slower than the clock that judges it: mineflayer's physics catches up a bounded
 * number of ticks a turn of the event loop, src/world/mineflayer/connect.ts).
 */

export const PATH_TALLY_ENV = 'FLEET_PATH_TALLY';
const tally = workerTally(PATH_TALLY_ENV, './fleet-path-tally.mjs', 'path-tally ');

interface Tally {
  searches: number;
  computes: number;
  nodes: number;
  astarMs: number;
  resets: Record<string, number>;
  /** Physics ticks simulated by all bots, and by walking bots, over the window; the wall time between walking ticks. */
  ticks?: number;
  walkTicks?: number;
  walkMs?: number;
  /** The window's wall time and the bots held at its end. */
  wallMs?: number;
  bots?: number;
}

/** One physics tick: 50 ms of a body's time. */
const TICK_MS = 50;

/** The node args that load the tally into a worker, when asked for. */
export function pathTallyArgs(): string[] {
  return tally.args();
}

/** The walk of each bot's plan: from where it spawns to the spot its plan walks to (blocks, horizontal). */
export function plannedWalks(layout: Layout, bots: number): number[] {
  return Array.from({ length: bots }, (_, i) => {
    const from = layoutHome(layout, i, bots);
    const { target } = layoutPlan(layout, i, bots)[0]!.args as { target: { x: number; z: number } };
    return Math.hypot(target.x + 0.5 - from.x, target.z + 0.5 - from.z);
  });
}

/** The plan phase's tally of every worker (the last window each printed), per plan, on stderr. */
export function reportPathTally(fleetProcesses: readonly CliProcess[], layout: Layout, bots: number): void {
  if (!tally.on) return;
  const total: Tally = { searches: 0, computes: 0, nodes: 0, astarMs: 0, resets: {} };
  const pace = { bodyMs: 0, heldMs: 0, walkBodyMs: 0, walkMs: 0 };
  for (const t of tally.windows<Tally>(fleetProcesses)) {
    total.searches += t.searches;
    total.computes += t.computes;
    total.nodes += t.nodes;
    total.astarMs += t.astarMs;
    for (const [why, n] of Object.entries(t.resets)) total.resets[why] = (total.resets[why] ?? 0) + n;
    pace.bodyMs += (t.ticks ?? 0) * TICK_MS;
    pace.heldMs += (t.bots ?? 0) * (t.wallMs ?? 0);
    pace.walkBodyMs += (t.walkTicks ?? 0) * TICK_MS;
    pace.walkMs += t.walkMs ?? 0;
  }
  const share = (body: number, wall: number) => (wall > 0 ? `${((100 * body) / wall).toFixed(0)} %` : 'n/a');
  const per = (n: number) => (n / bots).toFixed(2);
  const walks = plannedWalks(layout, bots);
  const meanWalk = walks.reduce((s, w) => s + w, 0) / walks.length;
  const resets = Object.entries(total.resets).map(([why, n]) => `${why} ${per(n)}`);
  process.stderr.write(
    `fleet: paths per plan: ${per(total.searches)} A* searches (${per(total.computes)} computes), ` +
      `${per(total.nodes)} nodes expanded, ${per(total.astarMs)} ms of A*; resets: ${resets.join(', ') || 'none'}; ` +
      `walk ${meanWalk.toFixed(1)} blocks on average, ${Math.max(...walks).toFixed(1)} at most; ` +
      `bodies' physics time against wall time: ${share(pace.bodyMs, pace.heldMs)} of the plan phase, ` +
      `${share(pace.walkBodyMs, pace.walkMs)} while walking\n`,
  );
}
