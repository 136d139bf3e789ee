import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/index.js';
import { dispatchQueryOf, judgeStep, observation } from '../../src/testing/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import collectDrops from './index.js';
import { match } from '../../test/helpers/matchers.js';

function yard() {
  const clock = new ManualClock();
  const world = SimWorld.create({ clock });
  world.spawnEntity({
    name: 'item',
    kind: 'item',
    position: { x: 5.5, y: 0, z: 0.5 },
    item: { name: 'oak_log', count: 1 },
  });
  world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 1.5, y: 0, z: 0.5 } });
  const guard = async (args: unknown) =>
    collectDrops.guard({ world, observation: await world.observe() }, collectDrops.inputSchema.parse(args));
  return { clock, world, guard };
}

describe('collect_drops', () => {
  it('defaults the radius to 8 and bounds it to 1..32', () => {
    expect(collectDrops.inputSchema.parse({})).toEqual({ radius: 8 });
    expect(collectDrops.inputSchema.safeParse({ radius: 0.5 }).success).toBe(false);
    expect(collectDrops.inputSchema.safeParse({ radius: 33 }).success).toBe(false);
  });

  it('passes only when a matching dropped item lies within the radius', async () => {
    const { guard } = yard();
    expect(await guard({ item: 'oak_log' })).toEqual({ ok: true });
    expect(await guard({})).toEqual({ ok: true });
    expect(await guard({ item: 'oak_log', radius: 4 })).toMatchObject({
      ok: false,
      reason: match.stringMatching(/^no drops nearby: no dropped oak_log within 4 blocks/),
    });
    expect(await guard({ item: 'cobblestone' })).toMatchObject({
      ok: false,
      reason: match.stringMatching(/no dropped cobblestone/),
    });
  });

  it('accepts the inventory gain after walking over the drop in a SimWorld', async () => {
    const { clock, world } = yard();
    const args = collectDrops.inputSchema.parse({ item: 'oak_log' });
    const query = dispatchQueryOf(collectDrops, args);
    const pre = await world.observe(query);
    expect(pre.drops).toEqual([{ name: 'oak_log', count: 1, position: { x: 5.5, y: 0, z: 0.5 } }]);
    expect(judgeStep(collectDrops, pre, pre, args)).toEqual({
      ok: false,
      unmet: [
        'the pack holds at least 1 oak_log: it holds 0',
        'no dropped oak_log lies within 8 of (0.5, 0, 0.5): 1 still there (1 oak_log at (5.5, 0, 0.5))',
      ],
    });
    const walking = world.goto({ kind: 'block', x: 5, y: 0, z: 0 });
    await clock.advance(5_000);
    await walking;
    expect(judgeStep(collectDrops, pre, await world.observe(query), args)).toEqual({ ok: true });
  });

  it('needs every drop that lay there, not any growth: two logs felled, one picked up, is not done', () => {
    const logs = [
      { name: 'oak_log', count: 1, position: { x: 2.5, y: 0, z: 0.5 } },
      { name: 'oak_log', count: 1, position: { x: 3.5, y: 0, z: 0.5 } },
    ];
    const pre = observation({ inventory: { dirt: 2 }, drops: logs });
    const args = collectDrops.inputSchema.parse({ item: 'oak_log' });
    const one = observation({ inventory: { dirt: 2, oak_log: 1 }, drops: [logs[1]!] });
    expect(judgeStep(collectDrops, pre, one, args)).toMatchObject({
      ok: false,
      unmet: ['the pack holds at least 2 oak_log: it holds 1', expect.stringMatching(/1 still there/)],
    });
    expect(judgeStep(collectDrops, pre, observation({ inventory: { dirt: 2, oak_log: 2 }, drops: [] }), args)).toEqual({
      ok: true,
    });
    // Something else grew (a stick) while the logs still lie there: not done either.
    expect(
      judgeStep(
        collectDrops,
        pre,
        observation({ inventory: { dirt: 2, stick: 1 }, drops: logs }),
        collectDrops.inputSchema.parse({}),
      ).ok,
    ).toBe(false);
  });
});
