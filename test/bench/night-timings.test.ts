import { describe, expect, it } from 'vitest';
import type { RunFigures } from '../../bench/night-run.js';
import { timingReport, timingResults, type Timing } from '../../bench/night-timings.js';

/*
 * Issue 30 §5: the night bench says where a run's time goes (server start, bot join, encounter, teardown), and warns
 * when the event loop ran late during the encounters, since the game's tick waits on that loop.
 */

function run(name: string, start: number, join: number, encounter: number, teardown: number): RunFigures {
  const phases = { start, join, encounter, teardown };
  return { name, completed: true, deaths: 0, damage: 0, seconds: encounter / 1000, phases };
}

const runs = [
  run('night-none-0-bare-0', 900, 1_500, 13_000, 16),
  run('night-zombies-4-stone-0', 80, 1_000, 42_000, 5),
  run('night-zombies-8-bare-0', 40, 900, 28_000, 2),
];
const timing: Timing = { runs: 3, jobs: 2, wallMs: 45_000, cpuMs: 9_000, lagP99Ms: 60, lagMaxMs: 400 };

describe('the night bench’s timings', () => {
  it('sum each phase over the runs with its median, and name the longest encounter', () => {
    const report = timingReport(runs, timing);
    expect(report).toContain('3 runs, 2 at once, 45.0 s wall, 15.0 s a run');
    expect(report).toContain('start 1.0 s (median 0.1); join 3.4 s (median 1.0); encounter 83.0 s (median 28.0)');
    expect(report).toContain('the longest encounter: night-zombies-4-stone-0, 42.0 s');
    expect(report).toContain('process CPU 9.0 s (20 % of a core)');
    expect(report).toContain('late during the encounters by 60 ms at p99, 400 ms at most');
    expect(timingResults(runs, timing)).toContainEqual({
      name: 'night timings: median join a run',
      value: 1,
      unit: 's',
    });
  });

  it('say the figures are not a quiet machine’s only when the loop was late by more than two ticks at p99', () => {
    expect(timingReport(runs, { ...timing, lagP99Ms: 100 })).not.toContain('not a quiet machine');
    expect(timingReport(runs, { ...timing, lagP99Ms: 101 })).toContain(
      "the game ran slow, so these figures are not a quiet machine's",
    );
  });
});
