import { describe, expect, it, vi } from 'vitest';
import type { Vec3Like } from '../../src/contracts/world.js';
import { MAX_AIR } from '../../src/world/breath-rules.js';
import { botOf } from '../../src/world/mineflayer/index.js';
import { deathsOf, embeddedSuite } from '../helpers/embedded.js';

const suite = embeddedSuite({});

/** Seals the bot where it stands in a water-filled cell two high, walled and roofed in stone: it cannot surface. */
async function holdUnderWater(feet: Vec3Like): Promise<void> {
  for (const [dx, dz] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ] as const)
    for (const dy of [0, 1, 2])
      await suite.server.setBlock({ x: feet.x + dx, y: feet.y + dy, z: feet.z + dz }, 'stone');
  await suite.server.setBlock({ x: feet.x, y: feet.y + 2, z: feet.z }, 'stone');
  await suite.server.setBlock({ x: feet.x, y: feet.y + 1, z: feet.z }, 'water');
  await suite.server.setBlock(feet, 'water');
}

describe('drowning on the embedded server (the drowning plugin)', () => {
  it('a bot held under water runs out of air, then loses health on the server; surfaced, its air refills', async () => {
    const world = await suite.world.connectBot('diver');
    const deaths = deathsOf(world);
    const bot = botOf(world);
    await vi.waitFor(() => expect(bot.entity.onGround).toBe(true), { timeout: 10_000, interval: 50 });
    const { x, y, z } = bot.entity.position;
    const feet = { x: Math.floor(x), y: Math.floor(y), z: Math.floor(z) };
    await holdUnderWater(feet);
    const server = () => suite.server.player('diver')!;
    expect(server().health).toBe(20);

    // Air goes first (the client is told: mineflayer's oxygenLevel follows), then health, 2 at a time.
    await vi.waitFor(() => expect(bot.oxygenLevel).toBeLessThan(20), { timeout: 5_000, interval: 50 });
    expect(server().health).toBe(20);
    await vi.waitFor(() => expect(server().health).toBeLessThan(20), { timeout: 30_000, interval: 50 });
    expect(bot.oxygenLevel).toBe(0);
    expect(server().air).toBeLessThan(20);
    expect(20 - server().health).toBe(2);

    // Out of the water (the cells emptied), the air comes back to full and the client sees it.
    await suite.server.setBlock({ x: feet.x, y: feet.y + 1, z: feet.z }, 'air');
    await suite.server.setBlock(feet, 'air');
    await vi.waitFor(() => expect(server().air).toBe(MAX_AIR), { timeout: 10_000, interval: 50 });
    await vi.waitFor(() => expect(bot.oxygenLevel).toBe(20), { timeout: 5_000, interval: 50 });
    // Never drowned on the way (a dead bot would respawn at the spawn with its air full).
    expect(deaths, JSON.stringify(deaths)).toEqual([]);
  }, 60_000);
});
