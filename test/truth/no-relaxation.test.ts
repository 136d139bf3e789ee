import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import { distanceToGoal } from '../../src/contracts/stands-on.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { harness, plan } from '../helpers/executor.js';

const island = (clock: Parameters<typeof SimWorld.create>[0]['clock'], inventory: Record<string, number> = {}) =>
  SimWorld.create({ clock, ground: { radius: 12 }, unbreakable: ['obsidian', 'bedrock'], inventory });

describe('ok means the goal as asked, never a loosened one', () => {
  it('a target cell in mid-air with blocks to build with: the reach rung pillars up to it, and the step ends ok at the goal as asked', async () => {
    const h = await harness((clock) => island(clock, { cobblestone: 16 }));
    const target = { kind: 'block', x: 4, y: 3, z: 0 } as const;
    const result = await h.run(plan({ stepId: 'up', type: 'navigate', args: { target } }), 600_000);
    expect(result.ok).toBe(true);
    const repairs = h.events
      .filter((e): e is EventOf<'step.repair'> => e.type === 'step.repair')
      .map((r) => r.strategy);
    expect(repairs).toContainEqual(expect.stringMatching(/^reach: pillared up 3 blocks/));
    expect(distanceToGoal(h.world.position(), target)).toBe(0);
    // The repair steps are listed in the result, under the step they ran for.
    expect(result.steps.filter((s) => s.parentStepId === 'up').map((s) => s.step.type)).toEqual(
      expect.arrayContaining(['navigate', 'pillar_up']),
    );
  });

  it('the same mid-air target with nothing to build with: an explicit failure whose evidence is the distance still to go', async () => {
    const h = await harness((clock) => island(clock));
    const result = await h.run(
      plan({ stepId: 'up', type: 'navigate', args: { target: { kind: 'block', x: 4, y: 3, z: 0 } } }),
      600_000,
    );
    expect(result.ok).toBe(false);
    const step = result.steps.find((s) => s.step.stepId === 'up')!;
    expect(step.outcome.ok).toBe(false);
    expect(step.durationMs).toBeLessThanOrEqual(15_000);
  });

  it('property: whatever unreachable cell is asked for, navigate never ends ok away from it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -8, max: 8 }),
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: -8, max: 8 }),
        fc.boolean(),
        async (x, y, z, sealed) => {
          fc.pre(Math.abs(x) + Math.abs(z) > 2);
          const h = await harness((clock) => {
            const world = island(clock);
            if (sealed) {
              world.fill({ x: x - 1, y: 0, z: z - 1 }, { x: x + 1, y: 2, z: z + 1 }, 'obsidian');
              world.fill({ x, y: 0, z }, { x, y: 1, z }, 'air');
            }
            return world;
          });
          const target = sealed ? { kind: 'block' as const, x, y: 0, z } : { kind: 'block' as const, x, y, z };
          const result = await h.run(plan({ stepId: 'go', type: 'navigate', args: { target } }), 600_000);
          const step = result.steps.find((s) => s.step.stepId === 'go')!;
          if (step.outcome.ok) expect(distanceToGoal(h.world.position(), target)).toBe(0);
          else expect(step.durationMs).toBeLessThanOrEqual(15_000);
          expect(result.ok).toBe(step.outcome.ok);
        },
      ),
      { numRuns: 12, seed: 11 },
    );
  });
});

describe('repair never harms the world it works in', () => {
  it('navigating to the top of a stone pillar never digs the pillar away, whatever the ladder tries', async () => {
    const h = await harness((clock) => {
      const world = island(clock);
      world.fill({ x: 3, y: 0, z: 0 }, { x: 3, y: 3, z: 0 }, 'stone');
      return world;
    });
    const result = await h.run(
      plan({ stepId: 'top', type: 'navigate', args: { target: { kind: 'block', x: 3, y: 4, z: 0 } } }),
      600_000,
    );
    expect(result.ok).toBe(false);
    for (let y = 0; y <= 3; y++) expect(h.world.blockAt({ x: 3, y, z: 0 })?.name).toBe('stone');
    expect(result.steps.some((s) => s.step.type === 'dig_block')).toBe(false);
  });

  it('cells the policy protects are never dug out, even when they block the way', async () => {
    const h = await harness(
      (clock) => {
        const world = island(clock);
        world.fill({ x: 3, y: 0, z: -12 }, { x: 3, y: 2, z: 12 }, 'dirt');
        return world;
      },
      { policy: { protect: [{ from: { x: 3, y: 0, z: -12 }, to: { x: 3, y: 2, z: 12 } }] } },
    );
    const result = await h.run(
      plan({ stepId: 'across', type: 'navigate', args: { target: { kind: 'block', x: 6, y: 0, z: 0 } } }),
      600_000,
    );
    expect(result.ok).toBe(false);
    for (let z = -2; z <= 2; z++)
      for (let y = 0; y <= 2; y++) expect(h.world.blockAt({ x: 3, y, z })?.name).toBe('dirt');
    const step = result.steps.find((s) => s.step.stepId === 'across')!;
    expect(step.outcome.ok ? '' : step.outcome.detail).toMatch(/dig_out skipped: no diggable, unprotected block/);
  });

  it('without protection the same wall is dug through (the protection test can fail)', async () => {
    const h = await harness((clock) => {
      const world = island(clock);
      world.fill({ x: 3, y: 0, z: -12 }, { x: 3, y: 2, z: 12 }, 'dirt');
      return world;
    });
    const result = await h.run(
      plan({ stepId: 'across', type: 'navigate', args: { target: { kind: 'block', x: 6, y: 0, z: 0 } } }),
      600_000,
    );
    expect(result.ok).toBe(true);
    expect(result.steps.some((s) => s.step.type === 'dig_block' && s.parentStepId === 'across')).toBe(true);
  });
});
