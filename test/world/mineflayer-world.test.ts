import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { WorldError, type PathStatus } from '../../src/contracts/world.js';
import { startEmbeddedWorld, type EmbeddedWorld } from '../../src/world/embedded/index.js';
import { connectMineflayerWorld, type MineflayerWorld } from '../../src/world/mineflayer/index.js';
import { createServer } from 'node:net';
import { loadScenario } from '../../src/world/scenario/index.js';
import { botOf } from '../../src/world/mineflayer/index.js';
import { match } from '../helpers/matchers.js';

/** One server and one bot for the file; tests run in order and each leaves the bot somewhere sensible. */
let world: EmbeddedWorld;
let bot: MineflayerWorld;

beforeAll(async () => {
  world = await startEmbeddedWorld({ scenario: await loadScenario('examples/scenarios/world-test.json') });
  bot = await world.connectBot('alice');
});

afterAll(async () => {
  await world?.stop();
});

async function failure(promise: Promise<unknown>): Promise<WorldError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorldError);
  return error as WorldError;
}

describe('MineflayerWorld against the embedded server', () => {
  it('goto walks to a goal and reports the path statuses', async () => {
    const statuses: PathStatus[] = [];
    bot.events.on('path', (status) => statuses.push(status));
    await bot.goto({ kind: 'near', x: 4, y: 5, z: 4, range: 2 });
    bot.events.removeAllListeners('path');
    const { x, y, z } = bot.position();
    expect((Math.floor(x) - 4) ** 2 + (Math.floor(y) - 5) ** 2 + (Math.floor(z) - 4) ** 2).toBeLessThanOrEqual(4);
    expect(statuses).toContain('planned');
    expect(statuses.at(-1)).toBe('reached');
    expect(world.server.player('alice')!.position.x).toBeCloseTo(x, 0);
  });

  it('an unreachable goal (inside an obsidian pen) fails explicitly with no_path', async () => {
    const error = await failure(bot.goto({ kind: 'block', x: -10, y: 6, z: -10 }));
    expect(error.code).toBe('no_path');
    expect(error.message).toContain('cannot reach block -10,6,-10');
    expect(botOf(bot).pathfinder.isMoving()).toBe(false);
  });

  it('a walk that makes no progress ends with no_path once the stall timeout passes (virtual time)', async () => {
    const clock = new ManualClock();
    const carol = await world.connectBot('carol', { clock, stallTimeoutMs: 4000 });
    try {
      // A bot that cannot move: what pathfinder does against a block it cannot pass, minus the wait.
      botOf(carol).physicsEnabled = false;
      let outcome: unknown = 'pending';
      const walking = carol.goto({ kind: 'xz', x: 10, z: -10 }).then(
        () => (outcome = 'resolved'),
        (error: unknown) => (outcome = error),
      );
      await clock.advance(3900);
      expect(outcome).toBe('pending');
      await clock.advance(200);
      await walking;
      expect(outcome).toBeInstanceOf(WorldError);
      expect(outcome).toMatchObject({ code: 'no_path', message: match.stringContaining('pathfinder stalled') });
      expect(botOf(carol).pathfinder.goal).toBeNull();
    } finally {
      await carol.close();
    }
  });

  it("a bot's first head turn does not teleport it back to where it logged in", async () => {
    const dave = await world.connectBot('dave');
    try {
      // Off the login spot without turning its head: walking until it is off (a loaded machine may give a timed walk
      // only a few physics ticks).
      botOf(dave).setControlState('forward', true);
      await vi.waitFor(() => expect(dave.position().z).toBeGreaterThan(1.5), { timeout: 10_000, interval: 20 });
      botOf(dave).setControlState('forward', false);
      await vi.waitFor(() =>
        expect(Math.abs(botOf(dave).entity.velocity.x) + Math.abs(botOf(dave).entity.velocity.z)).toBeLessThan(1e-3),
      );
      const standing = dave.position();
      // flying-squid finishes a login at the first look packet by resending the login position.
      await botOf(dave).look(1, 0);
      // A chat line sent after the look comes back after anything the server sent in answer to the look.
      const echoed = new Promise<void>((resolve) => {
        const heard = (line: string) => {
          if (!line.includes('looked')) return;
          botOf(dave).removeListener('messagestr', heard);
          resolve();
        };
        botOf(dave).on('messagestr', heard);
      });
      botOf(dave).chat('looked');
      await echoed;
      expect(dave.position()).toEqual(standing);
    } finally {
      await dave.close();
    }
  });

  it('dig removes the block on the server; the drop is seen by name and picked up by walking onto it', async () => {
    const target = { x: 3, y: 5, z: -3 };
    await bot.goto({ kind: 'near', ...target, range: 2 });
    const dirtBefore = world.server.player('alice')!.inventory.dirt!;
    expect(await world.server.blockAt(target)).toBe('dirt');
    await bot.dig(target);
    expect(await world.server.blockAt(target)).toBe('air');
    await vi.waitFor(
      () => expect(bot.entities().some((e) => e.kind === 'item' && e.item?.name === 'dirt')).toBe(true),
      { timeout: 3000 },
    );
    await bot.goto({ kind: 'block', ...target });
    await vi.waitFor(() => expect(world.server.player('alice')!.inventory.dirt).toBe(dirtBefore + 1), {
      timeout: 3000,
    });
  });

  it('placing into the space the bot occupies fails at once with a clear error', async () => {
    const error = await failure(bot.place({ x: 3, y: 5, z: -3 }, 'dirt'));
    expect(error.code).toBe('precondition_missing');
    expect(error.message).toContain('the bot is standing in that space');
  });

  it('place puts a block back, confirmed on the server and in observe()', async () => {
    const target = { x: 3, y: 5, z: -3 };
    await bot.goto({ kind: 'block', x: 3, y: 5, z: -1 });
    await bot.place(target, 'dirt');
    expect(await world.server.blockAt(target)).toBe('dirt');
    expect((await bot.observe({ blocks: [target] })).blocks['3,5,-3']).toBe('dirt');
  });

  it('finds blocks by name and equips an item', async () => {
    expect(bot.findBlocks({ names: ['oak_log'], maxDistance: 16, count: 10 })).toContainEqual({ x: 4, y: 5, z: 4 });
    await bot.equip('stick', 'hand');
    expect(bot.heldItem()).toBe('stick');
  });

  it('crafts planks and sticks in the 2x2 grid, confirmed by the server inventory', async () => {
    const before = world.server.player('alice')!.inventory;
    await bot.craft('oak_planks', 1);
    await bot.craft('stick', 1);
    const after = world.server.player('alice')!.inventory;
    expect(after.oak_log).toBe(before.oak_log! - 1);
    expect(after.stick).toBe(before.stick! + 4);
    expect(after.oak_planks).toBe(before.oak_planks! + 4 - 2);
  });

  it('crafts a wooden pickaxe at a crafting table (3x3)', async () => {
    const table = { x: -2, y: 5, z: 2 };
    await expect(bot.craft('wooden_pickaxe', 1)).rejects.toMatchObject({
      code: 'precondition_missing',
      message: match.stringContaining('crafting table'),
    });
    await bot.goto({ kind: 'near', ...table, range: 2 });
    await bot.craft('wooden_pickaxe', 1, { table });
    expect(world.server.player('alice')!.inventory.wooden_pickaxe).toBe(1);
  });

  it('eating bread raises food on the server', async () => {
    const before = world.server.player('alice')!.food;
    await bot.consume('bread');
    expect(world.server.player('alice')!.food).toBe(Math.min(20, before + 5));
    expect(bot.food()).toBe(world.server.player('alice')!.food);
  });

  it('aborting a goto rejects with aborted and stops the pathfinder', async () => {
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => bot.events.once('path', () => resolve()));
    const walking = bot.goto({ kind: 'xz', x: 40, z: 40 }, { signal: controller.signal });
    await started;
    controller.abort();
    const error = await failure(walking);
    expect(error.code).toBe('aborted');
    expect(botOf(bot).pathfinder.goal).toBeNull();
    expect(botOf(bot).pathfinder.isMoving()).toBe(false);
  });

  it('a server-side disconnect emits disconnected and rejects the pending actuator with world_disconnected', async () => {
    const bob = await world.connectBot('bob');
    const disconnected = new Promise<string>((resolve) => bob.events.once('disconnected', resolve));
    const started = new Promise<void>((resolve) => bob.events.once('path', () => resolve()));
    const walking = bob.goto({ kind: 'xz', x: -40, z: 40 });
    await started;
    expect(world.server.kick('bob', 'test kick')).toBe(true);
    const error = await failure(walking);
    expect(error.code).toBe('world_disconnected');
    expect(await disconnected).toMatch(/kicked|ended/);
    expect(bob.isConnected()).toBe(false);
    expect((await failure(bob.dig({ x: 0, y: 4, z: 0 }))).code).toBe('world_disconnected');
    // Nothing is read from the dead connection's cache: the guard and the acceptance learn it is away, not a fact.
    expect((await failure(bob.observe({ blocks: [{ x: 0, y: 4, z: 0 }] }))).code).toBe('world_disconnected');
    expect(() => bob.blockAt({ x: 0, y: 4, z: 0 })).toThrow(WorldError);
    expect(() => bob.findBlocks({ names: ['dirt'], maxDistance: 8, count: 1 })).toThrow(/disconnected/);
  });

  it('connecting to a port where no server listens fails with world_disconnected', async () => {
    const probe = createServer();
    const port = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
    );
    await new Promise((resolve) => probe.close(resolve));
    const error = await failure(connectMineflayerWorld({ host: '127.0.0.1', port, username: 'nobody' }));
    expect(error.code).toBe('world_disconnected');
    expect(error.message).toContain(`could not join 127.0.0.1:${port} as nobody`);
  });
});
