import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/random.js';
import type { Vec3Like } from '../../src/contracts/world.js';
import { botOf } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../helpers/embedded.js';

/**
 * findBlocks on a real bot finds every block its loaded chunks hold within the radius, nearest first,
 * whichever chunk section holds it: one log at a random cell of every section within two sections of the
 * spawn's, the diagonal ones included (mineflayer's own search walks an octahedron of sections and left
 * those out), and a log at the far diagonal corner of the radius.
 */

const SPAWN = { x: 0, y: 5, z: 0 };
const RADIUS = 48;
const SECTION = 16;

function logsAroundTheSpawn(): Vec3Like[] {
  const random = mulberry32(23);
  const cell = (section: number) => section * SECTION + Math.floor(random() * SECTION);
  const logs: Vec3Like[] = [{ x: 27, y: SPAWN.y + 27, z: -28 }];
  for (let sx = -2; sx <= 2; sx++)
    for (let sy = -1; sy <= 2; sy++)
      for (let sz = -2; sz <= 2; sz++) {
        const log = { x: cell(sx), y: cell(sy), z: cell(sz) };
        // Not in the bot's own two cells: it spawns there.
        if (log.x !== SPAWN.x || log.z !== SPAWN.z || (log.y !== SPAWN.y && log.y !== SPAWN.y + 1)) logs.push(log);
      }
  return logs;
}

const logs = logsAroundTheSpawn();
const DIAGONAL = logs[0]!;
const suite = embeddedSuite({ spawn: SPAWN, blocks: logs.map((at) => ({ ...at, block: 'oak_log' })) });

describe('findBlocks on the embedded server, read by a real bot', () => {
  it('finds every log within the radius in every section around the bot, diagonals included, nearest first', async () => {
    const bot = await suite.world.connectBot('finder');
    await botOf(bot).waitForChunksToLoad();
    const feet = bot.position();
    // Squared, as the search compares them: Math.hypot's rounding would break some exact ties differently.
    const distance = (at: Vec3Like) =>
      (at.x + 0.5 - feet.x) ** 2 + (at.y + 0.5 - feet.y) ** 2 + (at.z + 0.5 - feet.z) ** 2;
    const within = logs
      .filter((at) => distance(at) <= RADIUS ** 2)
      .sort((a, b) => distance(a) - distance(b) || a.x - b.x || a.y - b.y || a.z - b.z);
    // The seed's layout has logs in the corner sections of the cube, and some of them within the radius.
    expect(within.length).toBeGreaterThan(40);
    expect(logs.length).toBeGreaterThan(within.length);

    const all = bot.findBlocks({ names: ['oak_log'], maxDistance: RADIUS, count: logs.length });
    expect(all).toContainEqual(DIAGONAL);
    expect(all).toEqual(within);
    for (const count of [1, 2, 5, 20])
      expect(bot.findBlocks({ names: ['oak_log'], maxDistance: RADIUS, count })).toEqual(within.slice(0, count));
    // The superflat world is grass at y=4 over dirt over bedrock at y=0, over the void: a log in the dirt (y 1 to 3)
    // has no open face; above it, in the bedrock's layer and under it, it has.
    expect(bot.findBlocks({ names: ['oak_log'], maxDistance: RADIUS, count: logs.length, exposed: true })).toEqual(
      within.filter((at) => at.y >= 4 || at.y <= 0),
    );
  });
});
