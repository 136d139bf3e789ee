import { describe, expect, it } from 'vitest';
import { wallCells } from '../../capabilities/wall_in/cells.js';
import { embeddedSuite } from '../helpers/embedded.js';

// wall_in and dig_in on the embedded server (grass at y=4, dirt to y=1, bedrock at 0): each verified by the cells the
// server holds. Every bot spawns at 0,5,0 with cobblestone and a wooden shovel; each walks off to a spot of its own.
const suite = embeddedSuite({ bot: { inventory: { cobblestone: 10, wooden_shovel: 1 } } });

describe('shelters on the embedded server', () => {
  it('wall_in: a cobblestone on each side at feet and head level, as the server holds them', async () => {
    const { result } = await suite.run('waller', [
      { stepId: 'off', type: 'navigate', args: { target: { kind: 'block', x: -6, y: 5, z: 0 } } },
      { stepId: 'wall', type: 'wall_in', args: {} },
    ]);
    expect(result.steps.map((s) => s.outcome)).toEqual([{ ok: true }, { ok: true }]);
    const cells = wallCells({ x: -6, y: 5, z: 0 });
    expect(await Promise.all(cells.map((cell) => suite.server.blockAt(cell)))).toEqual(
      Array<string>(8).fill('cobblestone'),
    );
    expect(suite.server.player('waller')!.inventory.cobblestone).toBe(2);
  }, 60_000);

  it('dig_in: three blocks dug under the bot, the bot at the bottom, the top closed over its head', async () => {
    const { result } = await suite.run('digger', [
      { stepId: 'off', type: 'navigate', args: { target: { kind: 'block', x: 6, y: 5, z: 0 } } },
      { stepId: 'dig', type: 'dig_in', args: {} },
    ]);
    const summary = JSON.stringify(result.steps.map((s) => [s.step.stepId, s.step.type, s.outcome, s.attempts]));
    expect(result.ok, summary).toBe(true);
    expect(
      result.steps.map((s) => s.step.stepId),
      summary,
    ).toEqual(['off', 'dig']);
    const at = suite.server.player('digger')!.position;
    expect([Math.floor(at.x), Math.floor(at.y), Math.floor(at.z)]).toEqual([6, 2, 0]);
    const column = await Promise.all([4, 3, 2].map((y) => suite.server.blockAt({ x: 6, y, z: 0 })));
    // The cover is the most expendable block the pack holds by then: the dirt just dug.
    expect(column).toEqual(['dirt', 'air', 'air']);
  }, 60_000);
});

describe('out of a hole on a slope, on the embedded server', () => {
  it('climbs out of a hole dug in a dip, the ground a block higher all round, and walks on (issue 30)', async () => {
    // The ground beside the hole's top is a block higher on every side: the old way out looked only 3 up beside the
    // bot, into the raised dirt, and every later step ended "no ground outside to step out to".
    const spot = { x: 0, y: 5, z: 9 };
    const raised: Promise<void>[] = [];
    for (let dx = -3; dx <= 3; dx++)
      for (let dz = -3; dz <= 3; dz++)
        if (dx !== 0 || dz !== 0) raised.push(suite.server.setBlock({ x: dx, y: 5, z: spot.z + dz }, 'dirt'));
    await Promise.all(raised);
    const { result } = await suite.run('climber', [
      { stepId: 'in', type: 'navigate', args: { target: { kind: 'block', ...spot } } },
      { stepId: 'hole', type: 'dig_in', args: {} },
      { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 0, y: 6, z: spot.z + 3 } } },
    ]);
    const summary = JSON.stringify(result.steps.map((s) => [s.step.stepId, s.step.args, s.outcome]));
    expect(
      result.steps.map((s) => [s.step.stepId, s.outcome.ok]),
      summary,
    ).toEqual([
      ['in', true],
      ['hole', true],
      ['walk/safety-leave_shelter', true],
      ['walk', true],
    ]);
    const at = suite.server.player('climber')!.position;
    expect([Math.floor(at.x), Math.floor(at.y), Math.floor(at.z)]).toEqual([0, 6, spot.z + 3]);
  }, 60_000);
});
