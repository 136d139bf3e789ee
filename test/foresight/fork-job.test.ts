import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { captureView } from '../../src/foresight/index.js';
import { runForkJob } from '../../src/foresight/fork-job.js';
import { SimWorld } from '../../src/world/sim/index.js';

describe('runForkJob (what a worker thread runs, here in-process)', () => {
  it("reports the step's expectations, the damage the fork took and its simulated time", async () => {
    // A hungry bot standing on a magma block: eating there takes long enough to be burnt in the fork.
    const real = SimWorld.create({ clock: new ManualClock(), food: 10, inventory: { bread: 1 } });
    real.setBlock({ x: 0, y: -1, z: 0 }, 'magma_block');
    const healthBefore = real.health();
    const view = await captureView(real, { radius: 5, height: 3 });
    const outcome = await runForkJob(view, { verb: 'consume_food', args: { item: 'bread' }, simBudgetMs: 60_000 });
    expect(outcome).toMatchObject({ outcome: 'ok', unmet: [] });
    expect(outcome.expectations.length).toBeGreaterThan(0);
    expect(outcome.damage).toBeGreaterThan(0);
    expect(outcome.simulatedMs).toBeGreaterThan(0);
    expect(real.health()).toBe(healthBefore);
    expect(real.inventory()).toEqual({ bread: 1 });
  });
});
