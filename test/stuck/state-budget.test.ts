import { describe, expect, it } from 'vitest';
import { StuckDetectorSet } from '../../src/stuck/detector-set.js';
import { StuckStateArena } from '../../src/stuck/state-arena.js';

/*
 * The state budget of docs/contract.md ("Their budgets"), checked where it is a count, not a measurement: every
 * detector's state is doubles in one shared arena (test/stuck/stuck-monitor.test.ts › "keeps agents apart when
 * they share a detector set and an arena"), so an agent's state is its slots times 8 bytes. The time budgets (per
 * tick, per rung) stay the bench's: tests assert no timings.
 */
const BUDGET_BYTES = 1024;
const GOAL_BYTES = 512;

describe('the stuck detectors state budget', () => {
  it('an agent holds its detector state in under 512 B of the shared arena, within the 1 KB budget', () => {
    const detectors = new StuckDetectorSet();
    const bytes = detectors.slots * Float64Array.BYTES_PER_ELEMENT;
    expect(bytes).toBeLessThan(GOAL_BYTES);
    expect(bytes).toBeLessThanOrEqual(BUDGET_BYTES);
    const agents = 1000;
    expect(new StuckStateArena(detectors, agents).state.byteLength).toBe(agents * bytes);
  });
});
