import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SAVE_FILE, SAVE_FORMAT, type SaveFile, type SavedPlayer } from '../src/world/embedded/save-file.js';
import { planAt } from './embedded-fleet.js';
import type { Step } from './embedded-support.js';
import type { Layout } from './types.js';

/*
 * Where the fleet bench's bots stand. Both layouts give each bot a home of its own through a save file (the server
 * puts a player the save knows where the save says) and the same plan beside it: walk WALK blocks east, place a block
 * two blocks south of where it stopped, dig it again. So a bot's work is the same at every size and in both layouts,
 * and what changes between rows is only how many others it sees.
 * - `crowd`: the homes on a dense grid around the spawn, rows of twenty, CROWD_X blocks apart in x and CROWD_Z in z:
 *   every bot sees, decodes and simulates every other (the server's entity view is 150 blocks).
 *   Until 2026-12-06 every bot of the crowd spawned at the spawn and walked to its spot of a grid 5 blocks apart in z,
 *   so that its walk lengthened with the fleet (10.5 blocks on average at 50 bots, 39 at 300): rows of the crowd from
 *   before that are not comparable with these.
 * - `spread`: each home SPREAD_APART blocks from the next, farther than the server's view distance (4 chunks), so no
 *   bot sees another, as on a real map.
 */

/** Ten chunks: two bots' views (4 chunks each way) never meet. */
const SPREAD_APART = 160;
/** A crowd's column: a walk of WALK east ends one block short of the next home. */
const CROWD_X = 5;
/**
 * A crowd's row: the block a bot places (two south of its row) lies two blocks short of the next row. (Rows 3 apart,
 * the block beside the next row's walk, failed 133 of 300 plans by the deadline of their place and dig steps.)
 */
const CROWD_Z = 5;
/** The crowd's rows of twenty: 300 bots within 100 × 75 blocks, every bot in every other's view. */
const CROWD_PER_ROW = 20;
/** How far each bot walks east from its home. */
const WALK = 4;
/** The spread's rows of ten. */
const PER_ROW = 10;
/** The superflat ground's top is y=4; a bot stands on it at y=5. */
const STAND_Y = 5;

/** Where bot i of `bots` stands when its plan starts (and where the save puts it as it joins). */
export function layoutHome(layout: Layout, i: number, bots: number): { x: number; y: number; z: number } {
  if (layout === 'spread') {
    const [column, row] = [i % PER_ROW, Math.floor(i / PER_ROW)];
    return { x: column * SPREAD_APART, y: STAND_Y, z: row * SPREAD_APART };
  }
  // Centred on the spawn (0, 0), the crowd's rows as many north of it as south; each bot in the middle of its block,
  // clear of the blocks its neighbours place.
  const [column, row, rows] = [i % CROWD_PER_ROW, Math.floor(i / CROWD_PER_ROW), Math.ceil(bots / CROWD_PER_ROW)];
  const [x, z] = [(column - CROWD_PER_ROW / 2) * CROWD_X, (row - Math.floor(rows / 2)) * CROWD_Z];
  return { x: x + 0.5, y: STAND_Y, z: z + 0.5 };
}

/** Bot i's plan in the layout: walk WALK blocks east of its home, place a block two south of there, dig it. */
export function layoutPlan(layout: Layout, i: number, bots: number): Step[] {
  const { x, z } = layoutHome(layout, i, bots);
  return planAt({ x: Math.floor(x) + WALK, z: Math.floor(z) });
}

// minecraft-protocol comes with mineflayer: the offline uuid its server gives a name (what a save keys players by).
const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer/package.json'));
const { nameToMcOfflineUUID } = fromMineflayer('minecraft-protocol/src/datatypes/uuid.js') as {
  nameToMcOfflineUUID(this: void, name: string): string;
};

/**
 * A world folder for `verbtree world --world-folder` whose save holds every bot at its home in the layout with the
 * bench's 4 dirt (a player the save knows gets no scenario inventory); its chunks are the generator's.
 */
export function layoutWorldFolder(layout: Layout, folder: string, names: readonly string[], scenario: string) {
  mkdirSync(folder, { recursive: true });
  const players = names.map((username, i): SavedPlayer => ({
    uuid: nameToMcOfflineUUID(username),
    username,
    position: layoutHome(layout, i, names.length),
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
    JSON.stringify({ worldId: `bench-${layout}-${names.length}`, createdAt: Date.now(), scenario }),
  );
  return folder;
}
