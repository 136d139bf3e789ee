import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Phases, RunFigures } from './night-run.js';
import type { BenchResult } from './types.js';

/**
 * Where the night bench's time went (issue 30 §5): each phase of a run summed over the runs, the wall time a run, the
 * process's CPU, and how late the event loop ran during the encounters, with the figures the bench returns for them.
 */

/** The event loop's delay, read only while at least one encounter is under way. */
export function encounterLag() {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let underway = 0;
  return {
    during: async <T>(work: () => Promise<T>): Promise<T> => {
      if (underway++ === 0) histogram.enable();
      try {
        return await work();
      } finally {
        if (--underway === 0) histogram.disable();
      }
    },
    figures: () => ({ lagP99Ms: histogram.percentile(99) / 1e6, lagMaxMs: histogram.max / 1e6 }),
  };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Timing {
  runs: number;
  jobs: number;
  wallMs: number;
  cpuMs: number;
  lagP99Ms: number;
  lagMaxMs: number;
}

const PHASES: (keyof Phases)[] = ['start', 'join', 'encounter', 'teardown'];
/**
 * Two of the game's ticks: an event loop later than this at p99 during the encounters ran the game slow (a server's
 * tick and the bot's moves wait on it), so the run's times, and perhaps its outcomes, are not a quiet machine's.
 */
const SLOW_LOOP_MS = 100;

/** Where the time went, in words: each phase summed over the runs and its median, then the whole. */
export function timingReport(runs: RunFigures[], timing: Timing): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const phases = PHASES.map((phase) => {
    const each = runs.map((run) => run.phases[phase]);
    const sum = each.reduce((a, b) => a + b, 0);
    return `${phase} ${seconds(sum)} s (median ${seconds(median(each))})`;
  });
  const longest = runs.reduce((a, b) => (b.phases.encounter > a.phases.encounter ? b : a));
  return [
    `night timings: ${timing.runs} runs, ${timing.jobs} at once, ${seconds(timing.wallMs)} s wall, ` +
      `${seconds(timing.wallMs / timing.runs)} s a run`,
    `  summed over the runs: ${phases.join('; ')}`,
    `  the longest encounter: ${longest.name}, ${seconds(longest.phases.encounter)} s`,
    `  process CPU ${seconds(timing.cpuMs)} s (${((100 * timing.cpuMs) / timing.wallMs).toFixed(0)} % of a core); ` +
      `event loop late during the encounters by ${timing.lagP99Ms.toFixed(0)} ms at p99, ${timing.lagMaxMs.toFixed(0)} ms at most`,
    ...(timing.lagP99Ms > SLOW_LOOP_MS
      ? [
          `  the loop was late by more than ${SLOW_LOOP_MS} ms at p99: the game ran slow, so these figures are not a ` +
            `quiet machine's; run again with fewer --jobs, or when the machine is quieter`,
        ]
      : []),
  ].join('\n');
}

export function timingResults(runs: RunFigures[], timing: Timing): BenchResult[] {
  return [
    ...PHASES.map((phase) => ({
      name: `night timings: median ${phase} a run`,
      value: median(runs.map((run) => run.phases[phase])) / 1000,
      unit: 's',
    })),
    {
      name: `night timings: wall time a run (${timing.jobs} at once)`,
      value: timing.wallMs / 1000 / timing.runs,
      unit: 's',
    },
    { name: 'night timings: process CPU', value: (100 * timing.cpuMs) / timing.wallMs, unit: '% of a core' },
    { name: 'night timings: event loop delay p99 in encounters', value: timing.lagP99Ms, unit: 'ms' },
  ];
}
