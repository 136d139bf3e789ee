import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Vec3Like } from '../../src/contracts/world.js';
import { startEmbeddedWorld, type EmbeddedWorld } from '../../src/world/embedded/index.js';
import { loadMineflayer } from '../../src/world/mineflayer/load-mineflayer.js';
import { MineflayerWorld } from '../../src/world/mineflayer/index.js';
import { loadScenario } from '../../src/world/scenario/index.js';
import { botOf } from '../../src/world/mineflayer/index.js';

/** examples/scenarios/lava-river.json: lava in x 4..6 at y=4, a stone bridge at z 7..9, the bot at 0,5,0. */
const RIVER = { x0: 4, x1: 6, bridgeZ0: 7, bridgeZ1: 9 };
const HAZARDS = new Set(['lava', 'fire', 'soul_fire']);
const HALF_WIDTH = 0.3;

let world: EmbeddedWorld;

beforeAll(async () => {
  world = await startEmbeddedWorld({ scenario: await loadScenario('examples/scenarios/lava-river.json') });
});

afterAll(async () => {
  await world?.stop();
});

/** Every hazard block the bot's body touched while it moved (its feet and head cells under each corner). */
function watchHazards(bot: MineflayerWorld): { touched: string[]; crossedAt: Vec3Like[]; stop: () => void } {
  const touched: string[] = [];
  const crossedAt: Vec3Like[] = [];
  const onMove = () => {
    const { x, y, z } = botOf(bot).entity.position;
    if (x >= RIVER.x0 && x < RIVER.x1 + 1) crossedAt.push({ x, y, z });
    for (const dx of [-HALF_WIDTH, HALF_WIDTH]) {
      for (const dz of [-HALF_WIDTH, HALF_WIDTH]) {
        for (const dy of [0, 1]) {
          const block = bot.blockAt({ x: x + dx, y: y + dy, z: z + dz });
          if (block && HAZARDS.has(block.name))
            touched.push(`${block.name} at ${block.position.x},${block.position.y},${block.position.z}`);
        }
      }
    }
  };
  botOf(bot).on('move', onMove);
  return { touched, crossedAt, stop: () => botOf(bot).removeListener('move', onMove) };
}

describe('pathing across a lava river on the embedded server', () => {
  it('crosses by the bridge 8 blocks aside and never touches lava (no parkour jump over it)', async () => {
    const bot = await world.connectBot('crosser');
    const watch = watchHazards(bot);
    try {
      await bot.goto({ kind: 'block', x: 10, y: 5, z: 0 });
    } finally {
      watch.stop();
    }
    expect(watch.touched).toEqual([]);
    const server = world.server.player('crosser')!;
    expect(Math.floor(server.position.x)).toBe(10);
    expect(Math.floor(server.position.z)).toBe(0);
    expect(server.health).toBe(20);
    // Every moment over the river was over the bridge.
    expect(watch.crossedAt.length).toBeGreaterThan(0);
    for (const at of watch.crossedAt) expect(at.z).toBeGreaterThanOrEqual(RIVER.bridgeZ0 - HALF_WIDTH);
    for (const at of watch.crossedAt) expect(at.z).toBeLessThan(RIVER.bridgeZ1 + 1 + HALF_WIDTH);
  });

  it("wrapping a user's own bot leaves its pathfinder settings and error handling as they were, before and after verbtree's walks", async () => {
    const own = await world.connectBot('owner');
    const bot = botOf(own);
    const theirs = new (loadMineflayer().pathfinder.Movements)(bot);
    bot.pathfinder.setMovements(theirs);
    bot.pathfinder.thinkTimeout = 1234;
    const errorHandlers = bot.listenerCount('error');
    const wrapped = new MineflayerWorld(bot);
    expect(bot.pathfinder.movements).toBe(theirs);
    expect(bot.pathfinder.thinkTimeout).toBe(1234);
    expect(bot.listenerCount('error')).toBe(errorHandlers);
    await wrapped.goto({ kind: 'block', x: -3, y: 5, z: 2 });
    expect(bot.pathfinder.movements).toBe(theirs);
    expect(bot.pathfinder.thinkTimeout).toBe(1234);
    // verbtree's hazard rules live on its own Movements, not patched into theirs.
    expect(Object.hasOwn(theirs, 'getNeighbors')).toBe(false);
  });
});
