import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';
import { wallCells } from './cells.js';

const wall = (args: Record<string, unknown> = {}) => ({ stepId: 'wall', type: 'wall_in', args });
const names = (h: Awaited<ReturnType<typeof harness>>) =>
  wallCells({ x: 0, y: 0, z: 0 }).map((cell) => h.world.blockAt(cell)?.name);

describe('wall_in runs end to end on SimWorld', () => {
  it('places a block on each side at feet and head level, verified cell by cell; a zombie cannot reach the bot', async () => {
    const h = await harness({ inventory: { cobblestone: 10 }, timeOfDay: 18_000 });
    const result = await h.run(plan(wall()));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true }, attempts: 1 }] });
    expect(names(h)).toEqual(Array<string>(8).fill('cobblestone'));
    expect(h.world.inventory()).toEqual({ cobblestone: 2 });
    expect(h.world.position()).toMatchObject({ x: 0.5, y: 0, z: 0.5 });
    // A zombie by the rules walks up to the wall and never lands a hit.
    h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 4.5, y: 0, z: 0.5 }, ai: true });
    await h.clock.advance(20_000);
    expect(h.world.health()).toBe(20);
  });

  it('fills only the open cells: a solid one beside the bot is part of the wall', async () => {
    const h = await harness({ inventory: { dirt: 7 }, blocks: [{ position: { x: 1, y: 0, z: 0 }, name: 'stone' }] });
    const result = await h.run(plan(wall({ block: 'dirt' })));
    expect(result.ok).toBe(true);
    expect(names(h)).toEqual(['stone', ...Array<string>(7).fill('dirt')]);
    expect(h.world.inventory()).toEqual({});
  });

  it('fails with precondition_missing, naming the shortfall, when the pack holds too few blocks; nothing placed', async () => {
    const h = await harness({ inventory: { dirt: 5 } });
    const result = await h.run(plan(wall()));
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: 'a wall around the bot needs 8 dirt, the inventory holds 5',
    });
    expect(h.world.actuatorLog).toEqual([]);
  });

  it('refuses over a drop: a feet-level cell to fill has no floor to place on', async () => {
    const h = await harness({ inventory: { dirt: 10 }, blocks: [{ position: { x: 0, y: -1, z: 1 }, name: 'air' }] });
    const result = await h.run(plan(wall()));
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      detail: 'no floor under the wall cell at (0, 0, 1) to place a block on',
    });
  });
});
