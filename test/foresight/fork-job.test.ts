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

  it("maps a fight's judgedOn to the fork's ids: a mob the fight was judged on does not break it off there", async () => {
    // A zombie on the bot and a second one 8 blocks off coming (beyond a zombie's join distance of 6): both judged.
    const real = SimWorld.create({
      clock: new ManualClock(),
      timeOfDay: 18_000,
      inventory: { stone_sword: 1 },
      heldItem: 'stone_sword',
    });
    // Two cows gone before: the real world's ids run ahead of the fork's, which numbers its mobs from the start.
    for (const x of [5, 6])
      real.removeEntity(real.spawnEntity({ name: 'cow', kind: 'passive', position: { x, y: 0, z: 5 } }));
    const first = real.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 2.5, y: 0, z: 0.5 }, ai: true });
    const second = real.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: -8.5, y: 0, z: 0.5 }, ai: true });
    const view = await captureView(real, { radius: 12, height: 3 });
    const outcome = await runForkJob(view, {
      verb: 'attack_entity',
      args: { target: { id: first }, within: 24, judgedOn: [first, second] },
      simBudgetMs: 30_000,
    });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ outcome: 'ok' });
  });
});
