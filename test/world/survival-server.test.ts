import { describe, expect, it } from 'vitest';
import { survivalTerrain } from '../../src/world/terrain/survival-terrain.js';
import { embeddedSuite } from '../helpers/embedded.js';

const SEED = 7;
// The terrain's own mobs, standing where they are put (ai: false), so the layout can be compared while the bot looks:
// living by the game's rules, the animals would stroll and the zombie burn by day (mob life is test/world/mobs-parity).
const suite = embeddedSuite({
  terrain: { kind: 'survival', seed: SEED },
  mobs: survivalTerrain(SEED).mobs.map((mob) => ({ ...mob, ai: false })),
});

describe('the survival terrain on the embedded server', () => {
  it('the server generates the same blocks as the terrain function (which SimWorld reads), and the bot sees them', async () => {
    const t = survivalTerrain(SEED);
    const bot = await suite.world.connectBot('surveyor');
    expect(bot.position()).toMatchObject({ x: t.spawn.x + 0.5, y: t.spawn.y, z: t.spawn.z + 0.5 });
    let compared = 0;
    for (let x = -24; x <= 24; x += 3)
      for (let z = -24; z <= 24; z += 3)
        for (let y = 0; y <= 36; y++) {
          const expected = t.blockAt(x, y, z);
          expect(await suite.server.blockAt({ x, y, z }), `server at ${x},${y},${z}`).toBe(expected);
          expect(bot.blockAt({ x, y, z })?.name, `bot at ${x},${y},${z}`).toBe(expected);
          compared++;
        }
    expect(compared).toBe(17 * 17 * 37);
    expect(bot.findBlocks({ names: ['iron_ore'], maxDistance: 32, count: 1, exposed: true })).toHaveLength(1);
  });

  it("stands the terrain's mobs where SimWorld stands them, as the server holds them", async () => {
    const t = survivalTerrain(SEED);
    const names = [...new Set(t.mobs.map((m) => m.name))];
    const living = await suite.server.livingEntities({ names, within: 64 }, t.spawn);
    const at = (name: string, p: { x: number; y: number; z: number }) =>
      `${name}@${Math.floor(p.x)},${Math.floor(p.y)},${Math.floor(p.z)}`;
    expect(living.map((e) => at(e.name, e.position)).sort()).toEqual(t.mobs.map((m) => at(m.name, m)).sort());
  });
});
