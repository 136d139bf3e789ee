import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Vec3 } from 'vec3';
import type { MineflayerWorld } from '../../src/world/mineflayer/index.js';
import { botOf } from '../../src/world/mineflayer/bot-of.js';
import {
  prepareWorldFolder,
  readSavedAt,
  startEmbeddedWorld,
  type ChildEmbeddedServer,
  type EmbeddedServer,
  type EmbeddedWorld,
} from '../../src/world/embedded/index.js';
import { readSaveFile, writeSaveFile, type SaveFile } from '../../src/world/embedded/save-file.js';
import { parseScenario, type ScenarioInput } from '../../src/world/scenario/index.js';

/*
 * Each test runs a world in a child process, acts in it, waits for a save that
 * follows the act, and SIGKILLs the child: no clean stop, no last save. The
 * folder is then reopened in this process, and the same player logs in again.
 */

const CHEST = { x: 2, y: 5, z: -2 };
const FURNACE = { x: -2, y: 5, z: -2 };

function scenarioOf(input: Partial<ScenarioInput> = {}) {
  return parseScenario({
    name: 'kept',
    bot: { inventory: { cobblestone: 10, raw_iron: 2, oak_planks: 4 } },
    blocks: [
      { ...CHEST, block: 'chest' },
      { ...FURNACE, block: 'furnace' },
    ],
    ...input,
  });
}

/** Polls on real time until `holds`; fails naming `what` after the limit. */
async function until<T>(what: string, read: () => T | Promise<T>, limitMs = 15_000): Promise<NonNullable<T>> {
  for (const end = Date.now() + limitMs; ;) {
    const value = await read();
    if (value && (!Array.isArray(value) || value.length > 0)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Killed {
  folder: string;
  /** The last save the killed server made: what a reopened world must hold. */
  last: SaveFile;
}

/**
 * A fresh kept world in a child process: `act` runs with the bot "keeper",
 * then, once a save that began after it is on disk, the child is killed.
 */
async function actThenKill(
  scenario: ReturnType<typeof scenarioOf>,
  act: (bot: MineflayerWorld, kept: { folder: string; server: EmbeddedServer }) => Promise<void>,
): Promise<Killed> {
  const folder = join(mkdtempSync(join(tmpdir(), 'verbtree-kept-')), 'world');
  prepareWorldFolder(folder, 'fresh');
  const world = await startEmbeddedWorld({
    isolation: 'child-process',
    scenario,
    storage: { folder, fresh: true },
  });
  try {
    const bot = await world.connectBot('keeper');
    await act(bot, { folder, server: world.server });
    const actedAt = Date.now();
    await until('a save after the act', () => (readSavedAt(folder) ?? 0) > actedAt);
    const server = world.server as ChildEmbeddedServer;
    process.kill(server.pid, 'SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
  } finally {
    await world.stop();
  }
  return { folder, last: readSaveFile(folder)! };
}

async function reopen(folder: string, scenario: ReturnType<typeof scenarioOf>): Promise<EmbeddedWorld> {
  expect(prepareWorldFolder(folder, 'keep')).toEqual({ fresh: false });
  return startEmbeddedWorld({ scenario, storage: { folder, fresh: false } });
}

// Each test has a world folder, servers and a bot of its own, and most of its time is the game's (a save, a drop's
// pickup delay, a furnace's smelt): they run side by side.
describe.concurrent('a kept embedded world survives a SIGKILL (no last save)', () => {
  it('a player logs in again where it stood, with its health, food and pack; a new player gets the scenario', async () => {
    const scenario = scenarioOf();
    const { folder } = await actThenKill(scenario, async (bot, { server }) => {
      await bot.goto({ kind: 'block', x: 3, y: 5, z: 3 });
      await bot.craft('stick', 1);
      server.setHealth('keeper', 13);
      server.setFood('keeper', 15);
      await until('the server holds the hurt', () => server.player('keeper')?.health === 13);
    });
    const world = await reopen(folder, scenario);
    try {
      const bot = await world.connectBot('keeper');
      expect(bot.position()).toEqual({ x: 3.5, y: 5, z: 3.5 });
      expect({ health: bot.health(), food: bot.food() }).toEqual({ health: 13, food: 15 });
      const pack = { cobblestone: 10, raw_iron: 2, oak_planks: 2, stick: 4 };
      expect(bot.inventory()).toEqual(pack);
      expect(world.server.player('keeper')).toMatchObject({ health: 13, food: 15, inventory: pack });
      const newcomer = await world.connectBot('newcomer');
      expect(newcomer.position()).toEqual({ x: 0.5, y: 5, z: 0.5 });
      expect(newcomer.inventory()).toEqual({ cobblestone: 10, raw_iron: 2, oak_planks: 4 });
    } finally {
      await world.stop();
    }
  }, 90_000);

  it('thrown items lie where they lay, of the age they had, under their ids, and are picked up as any drop', async () => {
    const scenario = scenarioOf();
    const { folder, last } = await actThenKill(scenario, async (bot) => {
      await bot.toss('cobblestone', 3);
    });
    expect(total(last.drops, 'cobblestone')).toBe(3);
    const world = await reopen(folder, scenario);
    try {
      // The reopened world's first save holds them as restored: same ids, older.
      const again = readSaveFile(folder)!;
      expect(again.drops.map((d) => d.id)).toEqual(last.drops.map((d) => d.id));
      again.drops.forEach((drop, i) => expect(drop.ageMs).toBeGreaterThanOrEqual(last.drops[i]!.ageMs));
      const bot = await world.connectBot('keeper');
      expect(bot.inventory()).toEqual({ cobblestone: 7, raw_iron: 2, oak_planks: 4 });
      const seen = await until('the bot sees the drops', async () =>
        (await bot.observe({ drops: { radius: 8 } })).drops?.filter((d) => d.name === 'cobblestone'),
      );
      expect(total(seen, 'cobblestone')).toBe(3);
      await bot.goto({ kind: 'block', ...floored(seen[0]!.position) });
      await until('the drops are picked up', () => bot.inventory().cobblestone === 10);
    } finally {
      await world.stop();
    }
  }, 90_000);

  it("a drop at a player's feet at the kill is picked up into its restored pack, not under it", async () => {
    // The save a kill right after a dig leaves: the log lies where the player stands, ready to be picked up.
    const scenario = scenarioOf();
    const { folder, last } = await actThenKill(scenario, () => Promise.resolve());
    const keeper = last.players.find((p) => p.username === 'keeper')!;
    const log = { id: 0, name: 'oak_log', count: 1, position: keeper.position, velocity: { x: 0, y: 0, z: 0 } };
    await writeSaveFile(folder, { ...last, drops: [...last.drops, { ...log, ageMs: 5_000 }] });
    const world = await reopen(folder, scenario);
    try {
      const bot = await world.connectBot('keeper');
      const joinedAt = Date.now();
      const after = await until('a save with the log picked up', () => {
        const save = readSaveFile(folder);
        return save && save.savedAt > joinedAt && total(save.drops, 'oak_log') === 0 ? save : undefined;
      });
      const pack = { cobblestone: 10, raw_iron: 2, oak_planks: 4, oak_log: 1 };
      expect(packOf(after, 'keeper')).toEqual(pack);
      expect(bot.inventory()).toEqual(pack);
    } finally {
      await world.stop();
    }
  }, 90_000);

  it('a drop that ripens while a chest is open waits for the window to close, then lands in the pack', async () => {
    // The open chest's window holds the pack and writes it back when it closes, over anything picked up meanwhile.
    const scenario = scenarioOf();
    const { folder, last } = await actThenKill(scenario, () => Promise.resolve());
    const keeper = last.players.find((p) => p.username === 'keeper')!;
    const log = { id: 0, name: 'oak_log', count: 1, position: keeper.position, velocity: { x: 0, y: 0, z: 0 } };
    const pickupDelayMs = 6_000;
    await writeSaveFile(folder, { ...last, drops: [...last.drops, { ...log, ageMs: 0, pickupDelayMs }] });
    const world = await reopen(folder, scenario);
    const ripeAt = Date.now() + pickupDelayMs;
    try {
      const bot = await world.connectBot('keeper');
      const raw = botOf(bot);
      const chest = await raw.openContainer(raw.blockAt(new Vec3(CHEST.x, CHEST.y, CHEST.z))!);
      await until('the drop is ripe and a tick has passed', () => Date.now() > ripeAt + 500);
      chest.close();
      const closedAt = Date.now();
      const after = await until('a save with the log picked up', () => {
        const save = readSaveFile(folder);
        return save && save.savedAt > closedAt && total(save.drops, 'oak_log') === 0 ? save : undefined;
      });
      const pack = { cobblestone: 10, raw_iron: 2, oak_planks: 4, oak_log: 1 };
      expect(packOf(after, 'keeper')).toEqual(pack);
      expect(bot.inventory()).toEqual(pack);
    } finally {
      await world.stop();
    }
  }, 90_000);

  it('a chest keeps what was put in it, and the pack keeps what was not: nothing doubled', async () => {
    const scenario = scenarioOf();
    const { folder } = await actThenKill(scenario, async (bot) => {
      await bot.deposit(CHEST, 'cobblestone', 6);
    });
    const world = await reopen(folder, scenario);
    try {
      expect(await world.server.containerAt(CHEST)).toEqual({ cobblestone: 6 });
      const bot = await world.connectBot('keeper');
      expect(world.server.player('keeper')!.inventory).toEqual({ cobblestone: 4, raw_iron: 2, oak_planks: 4 });
      await bot.withdraw(CHEST, 'cobblestone', 6);
      expect(world.server.player('keeper')!.inventory.cobblestone).toBe(10);
    } finally {
      await world.stop();
    }
  }, 90_000);

  it('a furnace killed mid-smelt keeps its input, its lit fuel and its progress, and finishes the item', async () => {
    const scenario = scenarioOf();
    const { folder, last } = await actThenKill(scenario, async (bot, { folder: kept }) => {
      // The bot waits at the open furnace; it is killed with it open.
      void bot.smelt(FURNACE, 'raw_iron', 1, 'oak_planks').catch(() => undefined);
      await until('the furnace has cooked a while', () => furnaceIn(readSaveFile(kept)));
    });
    const before = furnaceIn(last)!;
    expect(before.slots).toEqual([{ slot: 0, name: 'raw_iron', count: 1 }]);
    expect(before.burnLeft).toBeGreaterThan(0);
    // The pack as it is once the open furnace closes: the input and the lit plank are in the furnace, not also in the pack.
    expect(packOf(last, 'keeper')).toEqual({ cobblestone: 10, raw_iron: 1, oak_planks: 3 });
    const world = await reopen(folder, scenario);
    try {
      const reopened = furnaceIn(readSaveFile(folder))!;
      expect(reopened.cooked).toBeGreaterThanOrEqual(before.cooked);
      expect(reopened.burnLeft).toBeLessThanOrEqual(before.burnLeft);
      // No fuel is left to light: only the saved heat can finish it.
      await until(
        'the furnace finishes the ingot',
        async () => (await world.server.containerAt(FURNACE))?.iron_ingot === 1,
        20_000,
      );
    } finally {
      await world.stop();
    }
  }, 90_000);

  it('a mob stands where it was knocked to, as hurt as it was, under its id', async () => {
    // It stands (ai: false), so where the hit knocked it is where it stays, and a reopened world keeps it standing.
    const scenario = scenarioOf({ mobs: [{ name: 'zombie', x: 2, y: 5, z: 1, ai: false }] });
    let hit: { id: number; position: { x: number; y: number; z: number }; health: number | null } | undefined;
    const { folder, last } = await actThenKill(scenario, async (bot, { server }) => {
      const [zombie] = (await bot.observe({ entities: { names: ['zombie'], within: 16 } })).entities!;
      await bot.attack(zombie!.id);
      [hit] = await until('the hit is on the server', async () =>
        (await server.livingEntities({ names: ['zombie'], within: 16 }, bot.position())).filter(
          (e) => (e.health ?? 20) < 20,
        ),
      );
    });
    expect(last.mobs).toEqual([expect.objectContaining({ id: hit!.id, name: 'zombie', position: hit!.position })]);
    const world = await reopen(folder, scenario);
    try {
      expect(await world.server.livingEntities({ names: ['zombie'], within: 16 }, { x: 0, y: 5, z: 0 })).toEqual([
        { id: hit!.id, name: 'zombie', position: hit!.position, health: hit!.health },
      ]);
      const bot = await world.connectBot('keeper');
      const seen = await until(
        'the bot sees the zombie',
        async () => (await bot.observe({ entities: { names: ['zombie'], within: 16 } })).entities,
      );
      expect(seen).toEqual([expect.objectContaining({ id: hit!.id, position: hit!.position })]);
    } finally {
      await world.stop();
    }
  }, 90_000);
});

function furnaceIn(save: SaveFile | null) {
  const furnace = save?.containers.find((c) => c.kind === 'furnace');
  return furnace && furnace.cooked >= 20 ? furnace : undefined;
}

function packOf(save: SaveFile, username: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of save.players.find((p) => p.username === username)!.inventory)
    counts[item.name] = (counts[item.name] ?? 0) + item.count;
  return counts;
}

function total(items: readonly { name: string; count: number }[], name: string): number {
  return items.filter((item) => item.name === name).reduce((sum, item) => sum + item.count, 0);
}

function floored(p: { x: number; y: number; z: number }) {
  return { x: Math.floor(p.x), y: Math.floor(p.y), z: Math.floor(p.z) };
}
