import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SAVE_FILE, SAVE_FORMAT, type SaveFile, type SavedPlayer } from '../src/world/embedded/save-file.js';
import { fleetPlan, planAt } from './embedded-fleet.js';
import type { Step } from './embedded-support.js';
import type { Layout } from './types.js';

/*
 * Where the fleet bench's bots stand. `crowd`: every bot spawns at the world's spawn and works on a grid around it
 * (each bot sees, decodes and simulates every other). `spread`: each bot spawns at a home of its own, SPREAD_APART
 * blocks from the next, farther than the server's view distance (4 chunks), so no bot sees another, as on a real map;
 * it works beside its home, the same plan a few blocks from where it stands.
 */

/** Ten chunks: two bots' views (4 chunks each way) never meet. */
const SPREAD_APART = 160;
const PER_ROW = 10;
/** The superflat ground's top is y=4; a bot stands on it at y=5. */
const STAND_Y = 5;

function home(i: number): { x: number; y: number; z: number } {
  return { x: (i % PER_ROW) * SPREAD_APART, y: STAND_Y, z: Math.floor(i / PER_ROW) * SPREAD_APART };
}

/** Bot i's plan in the layout: the crowd's spot on its grid, or 4 blocks east of its spread home. */
export function layoutPlan(layout: Layout, i: number, bots: number): Step[] {
  if (layout === 'crowd') return fleetPlan(i, bots);
  const { x, z } = home(i);
  return planAt({ x: x + 4, z });
}

// minecraft-protocol comes with mineflayer: the offline uuid its server gives a name (what a save keys players by).
const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer/package.json'));
const { nameToMcOfflineUUID } = fromMineflayer('minecraft-protocol/src/datatypes/uuid.js') as {
  nameToMcOfflineUUID(this: void, name: string): string;
};

/**
 * A world folder for `verbtree world --world-folder` whose save holds every bot at its spread home with the bench's
 * 4 dirt (a player the save knows gets no scenario inventory); its chunks are the generator's. Null for the crowd,
 * which needs none.
 */
export function layoutWorldFolder(layout: Layout, folder: string, names: readonly string[], scenario: string) {
  if (layout === 'crowd') return null;
  mkdirSync(folder, { recursive: true });
  const players = names.map((username, i): SavedPlayer => ({
    uuid: nameToMcOfflineUUID(username),
    username,
    position: home(i),
    yaw: 0,
    pitch: 0,
    health: 20,
    food: 20,
    saturation: 5,
    heldItemSlot: 0,
    gameMode: 0,
    xp: 0,
    inventory: [{ slot: 36, name: 'dirt', count: 4 }],
  }));
  const save: SaveFile = {
    format: SAVE_FORMAT,
    seq: 1,
    savedAt: Date.now(),
    time: 6_000,
    columns: {},
    players,
    drops: [],
    containers: [],
    mobs: [],
  };
  writeFileSync(join(folder, SAVE_FILE), JSON.stringify(save));
  writeFileSync(
    join(folder, 'verbtree-world.json'),
    JSON.stringify({ worldId: `bench-spread-${names.length}`, createdAt: Date.now(), scenario }),
  );
  return folder;
}
