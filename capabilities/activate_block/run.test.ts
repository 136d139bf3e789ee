import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';
import { match } from '../../test/helpers/matchers.js';

const use = (stepId: string, args: Record<string, unknown>) => ({ stepId, type: 'activate_block', args });
const door = [
  { position: { x: 6, y: 0, z: 0 }, name: 'oak_door' },
  { position: { x: 6, y: 1, z: 0 }, name: 'oak_door' },
];

describe('activate_block runs end to end on SimWorld', () => {
  it('walks to a door, opens both halves, shuts it again by toggling, and leaves an open one open when asked open', async () => {
    const h = await harness({ blocks: door });
    const result = await h.run(
      plan(
        use('open', { x: 6, y: 0, z: 0, state: 'open' }),
        use('again', { x: 6, y: 0, z: 0, state: 'open' }),
        use('toggle', { x: 6, y: 1, z: 0 }),
      ),
    );
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    // The second step found it open already: one use to open it, one to toggle it shut.
    expect(h.world.actuatorLog.filter((e) => e.command === 'activate').map((e) => e.outcome)).toEqual(['ok', 'ok']);
    const states = (await h.world.observe({ states: door.map((d) => d.position) })).states!;
    expect(Object.values(states)).toEqual([
      { name: 'oak_door', properties: { open: false } },
      { name: 'oak_door', properties: { open: false } },
    ]);
  });

  it('flips a lever on and tills grass with a hoe it holds', async () => {
    const h = await harness({
      blocks: [{ position: { x: 3, y: 0, z: 3 }, name: 'lever' }],
      inventory: { wooden_hoe: 1 },
    });
    const result = await h.run(
      plan(use('lever', { x: 3, y: 0, z: 3, state: 'on' }), use('till', { x: 2, y: -1, z: 0, item: 'wooden_hoe' })),
    );
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    const seen = await h.world.observe({ states: [{ x: 3, y: 0, z: 3 }], blocks: [{ x: 2, y: -1, z: 0 }] });
    expect(seen.states!['3,0,3']).toEqual({ name: 'lever', properties: { powered: true } });
    expect(seen.blocks['2,-1,0']).toBe('farmland');
  });

  it('fails with the reason and uses nothing: stone, an iron door, a hoe not held, a state the block has not', async () => {
    const h = await harness({
      blocks: [
        { position: { x: 2, y: 0, z: 0 }, name: 'iron_door' },
        { position: { x: 2, y: 0, z: 2 }, name: 'lever' },
      ],
    });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ x: 0, y: -1, z: 2 }, 'guard_failed', 'does nothing here'],
      [{ x: 2, y: 0, z: 0 }, 'guard_failed', 'opens only by redstone'],
      [
        { x: 0, y: -1, z: 2, item: 'wooden_hoe' },
        'precondition_missing',
        'holding wooden_hoe was asked and the inventory holds none',
      ],
      [
        { x: 2, y: 0, z: 2, state: 'open' },
        'guard_failed',
        '"open" is a state of a door, trapdoor or fence gate; the block at 2,0,2 is lever',
      ],
    ];
    for (const [args, code, words] of cases) {
      const result = await h.run(plan(use('bad', args)));
      expect(result.steps[0]!.outcome, JSON.stringify(args)).toMatchObject({
        ok: false,
        code,
        detail: match.stringContaining(words),
      });
    }
    expect(h.world.actuatorLog.filter((e) => e.command === 'activate')).toEqual([]);
  });
});
