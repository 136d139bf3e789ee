import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';

const dig = (x: number, y: number, z: number, block?: string) => ({
  stepId: `dig-${x}-${y}-${z}`,
  type: 'dig_block',
  args: { position: { x, y, z }, ...(block ? { block } : {}) },
});

describe('dig_block runs end to end on SimWorld', () => {
  it('walks within reach, takes the best tool and breaks the block, verified', async () => {
    const h = await harness({
      blocks: [{ position: { x: 9, y: 0, z: 0 }, name: 'oak_log' }],
      inventory: { wooden_pickaxe: 1, stone_axe: 1 },
    });
    const result = await h.run(plan(dig(9, 0, 0, 'oak_log')));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    expect(h.world.blockAt({ x: 9, y: 0, z: 0 })?.name).toBe('air');
    expect(h.world.actuatorLog.map((entry) => entry.command)).toEqual(['goto', 'equip', 'dig']);
    expect(h.world.heldItem()).toBe('stone_axe');
    expect(h.events.find((e) => e.type === 'step.firstAction')).toMatchObject({ command: 'goto' });
  });

  it('does not walk when the block is already within reach', async () => {
    const h = await harness({ blocks: [{ position: { x: 2, y: 0, z: 0 }, name: 'dirt' }] });
    const result = await h.run(plan(dig(2, 0, 0)));
    expect(result.ok).toBe(true);
    expect(h.world.actuatorLog.map((entry) => entry.command)).toEqual(['dig']);
  });

  it('fails explicitly when no standing cell near the block can be reached', async () => {
    // A stone floating in the void beyond the island's edge: no path leads within reach.
    const h = await harness({ ground: { radius: 4 }, blocks: [{ position: { x: 12, y: 0, z: 0 }, name: 'stone' }] });
    const result = await h.run(plan(dig(12, 0, 0)));
    expect(result.ok).toBe(false);
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'stuck.path' });
    expect(h.world.blockAt({ x: 12, y: 0, z: 0 })?.name).toBe('stone');
    expect(h.world.liveActuators()).toBe(0);
  });

  it('refuses an unbreakable block before any actuator runs', async () => {
    const h = await harness({ blocks: [{ position: { x: 1, y: 0, z: 0 }, name: 'bedrock' }] });
    const result = await h.run(plan(dig(1, 0, 0)));
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'guard_failed' });
    expect(h.world.actuatorLog).toEqual([]);
  });
});
