import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unmetExpectation } from '../../src/contracts/expectation.js';
import { feetCell } from '../../src/contracts/stands-on.js';
import type { EventOf } from '../../src/executor/events.js';
import { settle } from '../../src/world/sim/settle.js';
import { harness, plan } from '../helpers/executor.js';
import { PARTIAL_BLOCKS as PARTIAL } from '../helpers/partial-blocks.js';
import { ManualClock } from '../../src/clock/index.js';
import { SimWorld } from '../../src/world/sim/index.js';

/*
 * SimWorld's body stands as a real one does: its feet on the real collision top of what is under them (farmland's
 * 15/16, a slab's 1/2), by the one rule (src/contracts/stands-on.ts). Every block whose collision shape ends inside its
 * cell is walked onto through the executor, and the step must be verified on its first try, with no retry and no
 * unstuck move anywhere in it.
 */

describe('SimWorld: a bot walked onto any partial-height block stands on it, verified on the first try', () => {
  it(`property: every one of the ${PARTIAL.length} blocks with a collision top inside the cell, placed anywhere near`, async () => {
    expect(PARTIAL.map((b) => b.name)).toEqual(
      expect.arrayContaining(['farmland', 'dirt_path', 'soul_sand', 'oak_slab', 'chest', 'white_carpet', 'red_bed']),
    );
    const spot = fc.record({ x: fc.integer({ min: -6, max: 6 }), z: fc.integer({ min: 2, max: 6 }) });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PARTIAL), spot, async ({ name, top }, { x, z }) => {
        const at = { x, y: 0, z };
        const h = await harness({ blocks: [{ position: at, name }] });
        // The cell a body on it stands in: above it, or a carpet's own.
        const target = feetCell({ x, y: at.y + top, z });
        const result = await h.run(
          plan({ stepId: 'onto', type: 'navigate', args: { target: { kind: 'block', ...target } } }),
        );
        const record = result.steps.find((s) => s.step.stepId === 'onto')!;
        expect(result.ok, `${name}: ${result.detail ?? ''}`).toBe(true);
        expect(record).toMatchObject({ attempts: 1, retries: 0, repairs: 0 });
        expect(h.events.filter((e) => e.type === 'step.retry' || e.type === 'step.repair')).toEqual([]);
        expect(h.world.actuatorLog.filter((entry) => entry.command === 'move')).toEqual([]);
        // The feet rest on the block's real top, exactly.
        expect(h.world.position()).toEqual({ x: x + 0.5, y: at.y + top, z: z + 0.5 });
        const verified = h.events.find((e): e is EventOf<'step.ended'> => e.type === 'step.ended')!;
        expect(verified.attempts).toBe(1);
      }),
      { numRuns: 40, examples: PARTIAL.map((block) => [block, { x: 1, z: 3 }]) },
    );
  }, 300_000);

  it('a bot mid-jump over the farmland it stood on is not verified standing on it; landed again, it is', async () => {
    const clock = new ManualClock();
    const world = SimWorld.create({ clock, blocks: [{ position: { x: 0, y: 0, z: 2 }, name: 'farmland' }] });
    const onFarmland = { kind: 'position', goal: { kind: 'block', x: 0, y: 1, z: 2 } } as const;
    expect(await settle(clock, world.goto(onFarmland.goal))).toEqual({ state: 'ok' });
    expect(unmetExpectation(onFarmland, await world.observe())).toBeNull();
    expect(world.position().y).toBe(0.9375);
    const jumping = world.move('jump', 400);
    await clock.advanceUntil(() => world.position().y > 1, 1_000, 10);
    expect(unmetExpectation(onFarmland, await world.observe())).toBe(
      'the bot stands on (0, 1, 2): it is airborne (feet at y 2)',
    );
    await settle(clock, jumping);
    await clock.advance(2_000);
    expect(unmetExpectation(onFarmland, await world.observe())).toBeNull();
    expect(world.position().y).toBe(0.9375);
  });
});
