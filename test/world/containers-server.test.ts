import { describe, expect, it } from 'vitest';
import { blockKey, WorldError, type Vec3Like } from '../../src/contracts/world.js';
import { Vec3 } from 'vec3';
import { botOf, type MineflayerWorld } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { eventually } from '../helpers/eventually.js';

const suite = embeddedSuite({ bot: { inventory: { cobblestone: 10, raw_iron: 3, oak_planks: 4 } } });

async function failure(promise: Promise<unknown>): Promise<WorldError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorldError);
  return error as WorldError;
}

/** Sets a block on the server and waits until the bot's client has it too (it opens what it sees). */
async function placed(bot: MineflayerWorld, position: Vec3Like, block: string): Promise<void> {
  await suite.server.setBlock(position, block);
  expect(await eventually(() => botOf(bot).blockAt(new Vec3(position.x, position.y, position.z))?.name === block)).toBe(
    true,
  );
}

describe('chests and furnaces on the embedded server (the containers plugin)', () => {
  it('deposit and withdraw move items between the pack and the chest, as the server holds both', async () => {
    const bot = await suite.world.connectBot('storer');
    const chest = { x: 2, y: 5, z: 0 };
    await placed(bot, chest, 'chest');
    await bot.deposit(chest, 'cobblestone', 6);
    expect(suite.server.player('storer')!.inventory.cobblestone).toBe(4);
    expect(await suite.server.containerAt(chest)).toEqual({ cobblestone: 6 });
    await bot.withdraw(chest, 'cobblestone', 2);
    expect(suite.server.player('storer')!.inventory.cobblestone).toBe(6);
    expect((await bot.observe({ containers: [chest] })).containers).toEqual({ [blockKey(chest)]: { cobblestone: 4 } });
    // More than it holds: refused, nothing moved.
    expect((await failure(bot.withdraw(chest, 'cobblestone', 9))).code).toBe('precondition_missing');
    expect(await suite.server.containerAt(chest)).toEqual({ cobblestone: 4 });
    expect(suite.server.player('storer')!.inventory.cobblestone).toBe(6);
  }, 30_000);

  it("smelt cooks on the server's ticks (10 s an item) and the output reaches the pack; the furnace keeps the unburnt heat only", async () => {
    const bot = await suite.world.connectBot('smelter');
    const furnace = { x: -2, y: 5, z: 0 };
    await placed(bot, furnace, 'furnace');
    const started = Date.now();
    await bot.smelt(furnace, 'raw_iron', 1, 'oak_planks');
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
    const pack = suite.server.player('smelter')!.inventory;
    expect(pack).toMatchObject({ iron_ingot: 1, raw_iron: 2, oak_planks: 3 });
    // One plank burns 1.5 items' worth: it was lit and is gone; nothing is left in the furnace.
    expect(await suite.server.containerAt(furnace)).toEqual({});
  }, 40_000);

  it('a container the block no longer stands at is gone, and a block that is none reads null', async () => {
    const bot = await suite.world.connectBot('breaker');
    const chest = { x: 0, y: 5, z: 2 };
    await placed(bot, chest, 'chest');
    await bot.deposit(chest, 'raw_iron', 1);
    expect(await suite.server.containerAt(chest)).toEqual({ raw_iron: 1 });
    await suite.server.setBlock(chest, 'air');
    expect(await suite.server.containerAt(chest)).toBeNull();
    await suite.server.setBlock(chest, 'chest');
    expect(await suite.server.containerAt(chest)).toEqual({});
  }, 30_000);
});
