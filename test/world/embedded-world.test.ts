import { execFile } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { startEmbeddedWorld, type ChildEmbeddedServer } from '../../src/world/embedded/index.js';
import { loadScenario, parseScenario } from '../../src/world/scenario/index.js';
import { botOf } from '../../src/world/mineflayer/index.js';

const NETWORK = ['TCPServerWrap', 'TCPSocketWrap', 'Timeout'];

function networkHandles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo())
    if (NETWORK.includes(type)) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

const CLOSE_WAIT_MS = 2_000;

/**
 * The network handles once those closed have left: a closed socket leaves the active list when its close callback
 * has run, some turns of the event loop later. Polled on setImmediate, which adds no handle of the kinds counted
 * (a timer would count itself), for at most {@link CLOSE_WAIT_MS}.
 */
async function handlesOnceClosed(before: Record<string, number>): Promise<Record<string, number>> {
  const deadline = Date.now() + CLOSE_WAIT_MS;
  let after = networkHandles();
  while (NETWORK.some((type) => (after[type] ?? 0) > (before[type] ?? 0)) && Date.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
    after = networkHandles();
  }
  return after;
}

describe('embedded world', () => {
  it('applies a scenario, connects a bot and stops leaving no handle and no process-wide hook', async () => {
    const before = networkHandles();
    const hooks = () =>
      ['SIGINT', 'SIGTERM', 'uncaughtException', 'unhandledRejection'].map((e) => process.listenerCount(e));
    const hooksBefore = hooks();
    const world = await startEmbeddedWorld({ scenario: await loadScenario('examples/scenarios/world-test.json') });
    const { server } = world;
    expect(await server.blockAt({ x: 4, y: 7, z: 4 })).toBe('oak_log');
    expect(await server.blockAt({ x: -2, y: 5, z: 2 })).toBe('crafting_table');
    expect(await server.blockAt({ x: -8, y: 6, z: -10 })).toBe('obsidian');
    expect(await server.blockAt({ x: 0, y: 4, z: 0 })).toBe('grass_block');

    const bot = await world.connectBot('alice');
    expect(bot.position()).toMatchObject({ x: 0.5, y: 5, z: 0.5 });
    expect(bot.food()).toBe(12);
    expect(bot.inventory()).toEqual({ oak_log: 4, cobblestone: 3, oak_planks: 6, stick: 2, bread: 3, dirt: 8 });
    expect(server.player('alice')?.inventory).toEqual(bot.inventory());
    expect(bot.blockAt({ x: 4, y: 5, z: 4 })?.name).toBe('oak_log');
    expect(hooks()).toEqual(hooksBefore);

    // flying-squid regenerates a column nobody has loaded; the scenario must outlive its last player.
    await bot.close();
    await vi.waitFor(() => expect(server.playerNames()).toEqual([]));
    expect(await server.blockAt({ x: 4, y: 7, z: 4 })).toBe('oak_log');

    await world.stop();
    expect(bot.isConnected()).toBe(false);
    const after = await handlesOnceClosed(before);
    for (const type of NETWORK) expect(after[type] ?? 0, type).toBeLessThanOrEqual(before[type] ?? 0);
  });

  it('falling 8 blocks costs 5 health (a hurt event); dying respawns the bot at the spawn with full health', async () => {
    const world = await startEmbeddedWorld({
      scenario: parseScenario({
        name: 'pillar',
        spawn: { x: 3, y: 13, z: 0 },
        fills: [{ from: { x: 3, y: 5, z: 0 }, to: { x: 3, y: 12, z: 0 }, block: 'stone' }],
      }),
    });
    try {
      const bot = await world.connectBot('faller');
      const hurt = new Promise<number>((resolve) => bot.events.once('hurt', resolve));
      await bot.move('forward', 600);
      expect(await hurt).toBe(15);
      expect(world.server.player('faller')!.health).toBe(15);

      const respawned = new Promise<void>((resolve) => {
        botOf(bot).once('respawn', () => {
          botOf(bot).once('health', () => resolve());
        });
      });
      world.server.setHealth('faller', 0);
      await respawned;
      expect(bot.health()).toBe(20);
      expect(bot.position()).toEqual({ x: 3.5, y: 13, z: 0.5 });
      // The server learns the position from the client's next movement packet.
      await vi.waitFor(
        () => expect(world.server.player('faller')).toMatchObject({ health: 20, position: { x: 3.5, y: 13, z: 0.5 } }),
        { timeout: 3000 },
      );
    } finally {
      await world.stop();
    }
  });

  it('in child-process mode the server runs elsewhere: crafting is confirmed by it, and its crash only disconnects the bot', async () => {
    const world = await startEmbeddedWorld({
      isolation: 'child-process',
      scenario: parseScenario({ name: 'child', bot: { inventory: { oak_log: 2 } } }),
    });
    const server = world.server as ChildEmbeddedServer;
    try {
      expect(server.pid).not.toBe(process.pid);
      const bot = await world.connectBot('isolated');
      await bot.craft('oak_planks', 1);
      expect(server.player('isolated')?.inventory).toEqual({ oak_log: 1, oak_planks: 4 });
      expect(await server.blockAt({ x: 0, y: 4, z: 0 })).toBe('grass_block');

      const disconnected = new Promise<string>((resolve) => bot.events.once('disconnected', resolve));
      process.kill(server.pid, 'SIGKILL');
      expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
      await disconnected;
      await expect(bot.goto({ kind: 'xz', x: 5, z: 5 })).rejects.toMatchObject({ code: 'world_disconnected' });
    } finally {
      await world.stop();
    }
  });

  it('a process that starts a world, connects a bot, crafts, stops mid-dig and exits on its own', async () => {
    // Stopping mid-dig matters: flying-squid's dig animation interval outlives the player unless cancelled.
    const script = `
      import { startEmbeddedWorld } from './src/world/embedded/index.ts';
      import { parseScenario } from './src/world/scenario/index.ts';
      const world = await startEmbeddedWorld({ scenario: parseScenario({ name: 'child', blocks: [{ x: 1, y: 5, z: 0, block: 'obsidian' }], bot: { inventory: { oak_log: 1 } } }) });
      const bot = await world.connectBot('child');
      await bot.craft('oak_planks', 1);
      console.log('planks', (await bot.observe()).inventory.oak_planks);
      const digging = bot.dig({ x: 1, y: 5, z: 0 }).catch((error) => console.log('dig', error.code));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await world.stop();
      await digging;
      console.log('stopped');
    `;
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', script],
          { timeout: 25_000 },
          (error, out, err) =>
            resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout: out, stderr: err }),
        );
        child.stdin?.end();
      },
    );
    expect(stderr).toBe('');
    expect(stdout).toContain('planks 4');
    expect(stdout).toContain('dig world_disconnected');
    expect(stdout).toContain('stopped');
    // The 25 s kill would make code non-zero: exiting by itself is the assertion.
    expect(code).toBe(0);
  });
});
