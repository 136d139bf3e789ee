import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { captureView, ForkPool, runInFork, type CapturedView } from '../../src/foresight/index.js';
import { SimWorld } from '../../src/world/sim/index.js';

const WALL_MS = 60_000;

async function viewOfAWall(): Promise<{ real: SimWorld; view: CapturedView }> {
  const real = SimWorld.create({ clock: new ManualClock(), health: 17, inventory: { oak_planks: 2 } });
  real.fill({ x: 3, y: 0, z: -6 }, { x: 3, y: 3, z: 6 }, 'stone');
  return { real, view: await captureView(real, { radius: 6, height: 3 }) };
}

const walkTo = (x: number, z: number, simBudgetMs = 60_000) => ({
  verb: 'navigate',
  args: { target: { kind: 'block', x, y: 0, z } },
  simBudgetMs,
});

describe('runInFork', () => {
  it('runs a step through the executor in a worker thread and says how it went, leaving the real world as it was', async () => {
    const { real, view } = await viewOfAWall();
    const before = { ...real.position() };
    const pool = new ForkPool({ size: 1, wallBudgetMs: WALL_MS });
    const outcome = await runInFork(view, walkTo(-4, 2), pool);
    expect(outcome).toMatchObject({ outcome: 'ok', damage: 0, unmet: [] });
    expect(outcome.expectations.length).toBeGreaterThan(0);
    expect(outcome.simulatedMs).toBeGreaterThan(0);
    expect(real.position()).toEqual(before);
    expect(real.actuatorLog).toEqual([]);
  }, 120_000);

  it('fails a walk past what the bot has seen, as in an unloaded area, and counts the touches of the unknown', async () => {
    const { view } = await viewOfAWall();
    const pool = new ForkPool({ size: 1, wallBudgetMs: WALL_MS });
    // Beyond the wall and outside the captured box: nothing known leads there.
    const outcome = await runInFork(view, walkTo(9, 0), pool);
    expect(outcome.outcome).toBe('failed');
    expect(outcome.unknownTouches).toBeGreaterThan(0);
  }, 120_000);

  it('never runs more forks at once than its size, and its size never exceeds the cores', async () => {
    const { view } = await viewOfAWall();
    const pool = new ForkPool({ size: 1, wallBudgetMs: WALL_MS });
    const outcomes = await Promise.all([0, 1, 2].map((z) => runInFork(view, walkTo(-2, z), pool)));
    expect(outcomes.map((o) => o.outcome)).toEqual(['ok', 'ok', 'ok']);
    expect(pool.peak).toBe(1);
    expect(new ForkPool({ size: 1000, wallBudgetMs: WALL_MS }).size).toBe(availableParallelism());
  }, 180_000);

  it('cuts a fork off at its simulated-time budget with an explicit outcome', async () => {
    const { view } = await viewOfAWall();
    const pool = new ForkPool({ size: 1, wallBudgetMs: WALL_MS });
    const outcome = await runInFork(view, walkTo(-5, -5, 300), pool);
    expect(outcome).toMatchObject({ outcome: 'sim_budget' });
    expect(outcome.simulatedMs).toBeLessThanOrEqual(300);
  }, 120_000);

  it('ends a fork past its wall budget with an explicit outcome', async () => {
    const { view } = await viewOfAWall();
    const clock = new ManualClock();
    const pool = new ForkPool({ size: 1, wallBudgetMs: 5_000, clock });
    const pending = runInFork(view, walkTo(-4, 2), pool);
    // The wall clock passes the budget before the thread has even loaded its entry.
    await clock.advance(5_000);
    await expect(pending).resolves.toMatchObject({ outcome: 'wall_budget' });
  }, 120_000);
});

describe('a pool with warm threads', () => {
  it('replaces a thread past its wall budget with a warm one, which runs job after job, starting no other', async () => {
    const { view } = await viewOfAWall();
    const clock = new ManualClock();
    const pool = new ForkPool({ size: 1, wallBudgetMs: WALL_MS, warm: 1, clock });
    try {
      const pending = pool.run(view, walkTo(-4, 2), 5_000);
      // The wall clock passes the budget before the thread has even loaded its entry.
      await clock.advance(5_000);
      await expect(pending).resolves.toMatchObject({ outcome: 'wall_budget' });
      await pool.warmUp();
      expect(pool.started).toBe(2);
      const outcomes = [await runInFork(view, walkTo(-2, 0), pool), await runInFork(view, walkTo(-2, 2), pool)];
      expect(outcomes.map((o) => o.outcome)).toEqual(['ok', 'ok']);
      expect(pool.started).toBe(2);
    } finally {
      await pool.close();
    }
  }, 120_000);
});
