import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';

const put = (x: number, y: number, z: number, item = 'cobblestone') => ({
  stepId: `place-${x}-${y}-${z}`,
  type: 'place_block',
  args: { position: { x, y, z }, item },
});

describe('place_block runs end to end on SimWorld', () => {
  it('walks within reach and places the block, verified', async () => {
    const h = await harness({ inventory: { cobblestone: 2 } });
    const result = await h.run(plan(put(10, 0, 0)));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    expect(h.world.blockAt({ x: 10, y: 0, z: 0 })?.name).toBe('cobblestone');
    expect(h.world.inventory()).toEqual({ cobblestone: 1 });
    expect(h.world.actuatorLog.map((entry) => entry.command)).toEqual(['goto', 'place']);
    expect(Math.floor(h.world.position().x)).not.toBe(10);
  });

  it('places without walking when the cell is within reach', async () => {
    const h = await harness({ inventory: { dirt: 1 } });
    const result = await h.run(plan(put(2, 0, 1, 'dirt')));
    expect(result.ok).toBe(true);
    expect(h.world.actuatorLog.map((entry) => entry.command)).toEqual(['place']);
  });

  it('fails with precondition_missing when the item is not held and no sub-goal makes it', async () => {
    const h = await harness({ inventory: {} });
    const result = await h.run(plan(put(2, 0, 0)));
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'precondition_missing' });
    expect(h.world.actuatorLog).toEqual([]);
  });

  it('fails explicitly when the cell cannot be approached', async () => {
    // A ledge of stone beyond the island's edge: the cell above it has support but no path leads near it.
    const h = await harness({
      ground: { radius: 4 },
      inventory: { cobblestone: 1 },
      blocks: [{ position: { x: 12, y: -1, z: 0 }, name: 'stone' }],
    });
    const result = await h.run(plan(put(12, 0, 0)));
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'stuck.path' });
    expect(h.world.inventory()).toEqual({ cobblestone: 1 });
    expect(h.world.liveActuators()).toBe(0);
  });
});
