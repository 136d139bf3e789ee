import { describe, expect, it } from 'vitest';
import { MAX_AIR, PLAYER_EYE_HEIGHT } from '../../src/world/breath-rules.js';
import type { SimWorld } from '../../src/world/sim/index.js';
import { settle } from '../../src/world/sim/settle.js';
import { harness, plan } from '../helpers/executor.js';

/*
 * SimWorld's side of test/world/afloat-server.test.ts: the same pit (water at y=1..4 on a stone floor at y=0, its
 * bank of stone three blocks over the water's top), the bot on its floor under four blocks of water.
 */
function pit(world: SimWorld): SimWorld {
  world.fill({ x: -8, y: 0, z: -8 }, { x: 8, y: 0, z: 8 }, 'stone');
  world.fill({ x: -2, y: 1, z: -2 }, { x: 2, y: 6, z: 2 }, 'stone');
  world.fill({ x: -1, y: 1, z: -1 }, { x: 1, y: 4, z: 1 }, 'water');
  world.fill({ x: -1, y: 5, z: -1 }, { x: 1, y: 6, z: 1 }, 'air');
  return world.teleport({ x: 0, y: 1, z: 0 });
}
const WATER_SURFACE = 4 + 8 / 9;

describe('SimWorld keeps an idle bot afloat, as the embedded server test shows for a real bot', () => {
  it('a walk that fails in water it cannot leave ends explicitly, naming the water and the air; the bot floats up and breathes', async () => {
    const h = await harness();
    pit(h.world);
    const result = await h.run(
      plan({ stepId: 'ashore', type: 'navigate', args: { target: { kind: 'block', x: 7, y: 1, z: 0 } } }),
    );
    const step = result.steps.find((s) => s.step.stepId === 'ashore')!;
    expect(step.outcome.ok).toBe(false);
    expect(step.outcome.ok ? '' : step.outcome.detail).toMatch(
      /; the bot is in water at -?\d+,\d,-?\d+ with \d+ of 300 air$/,
    );
    expect(h.world.position().y + PLAYER_EYE_HEIGHT).toBeGreaterThan(WATER_SURFACE);
    await h.clock.advance(10_000);
    expect(h.world.air()).toBe(MAX_AIR);
    expect(h.world.health()).toBe(20);
    expect(h.world.position().y + PLAYER_EYE_HEIGHT).toBeGreaterThan(WATER_SURFACE);
  });

  it('a bot put on the floor of the pool with nothing done floats up from the first ticks and keeps its air', async () => {
    const h = await harness();
    pit(h.world);
    expect(h.world.position().y).toBe(1);
    await h.clock.advance(1_000);
    expect(h.world.position().y + PLAYER_EYE_HEIGHT).toBeGreaterThan(WATER_SURFACE);
    expect(h.world.air()).toBe(MAX_AIR);
    await h.clock.advance(10_000);
    expect(h.world.air()).toBe(MAX_AIR);
    expect(h.world.position().y + PLAYER_EYE_HEIGHT).toBeGreaterThan(WATER_SURFACE);
  });

  it('under a roof there is no surface to rise to: the bot stays where it is', async () => {
    const h = await harness();
    pit(h.world).fill({ x: -1, y: 5, z: -1 }, { x: 1, y: 5, z: 1 }, 'stone');
    expect(await settle(h.clock, h.world.move('back', 400))).toEqual({ state: 'ok' });
    expect(h.world.position().y).toBe(1);
  });
});
