import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SAVE_FILE, SAVE_FORMAT, type SaveFile, type SavedPlayer } from '../src/world/embedded/save-file.js';
import { fleetPlan, planAt } from './embedded-fleet.js';
import type { Step } from './embedded-support.js';
import type { Layout } from './types.js';

/*
 * Where the fleet bench's bots stand.
 * - `crowd`: every bot spawns at the world's spawn and walks to its spot of a grid around it, rows of ten, 3 blocks
 *   apart in x and 5 in z (embedded-fleet.ts), where it places a block and digs it: each bot sees, decodes and
 *   simulates every other. Its walk lengthens with the fleet (10.5 blocks on average at 50 bots, 39 at 300), and with
 *   it the path searches (1.2 A* searches and 77 nodes a plan at 50 bots, 3.1 and 457 at 300: FLEET_PATH_TALLY=1), so
 *   its cost per plan measures the walk as much as the crowd.
 * - `dense`: each bot spawns at a home of its own (through a save file the server reopens) on a grid around the spawn,
 *   rows of twenty, DENSE_X blocks apart in x and DENSE_Z in z, every bot in every other's view, and every plan walks
 *   the same WALK blocks east: a bot's work is the same at every size, and only the crowd grows. Its plans all place
 *   and dig in the same second, where the crowd's walks spread them over two minutes; at 300 bots that burst bends
 *   the world server (bots dropped, KeepAliveTimeout; docs/scale.md).
 * - `spread`: each bot spawns at a home of its own, SPREAD_APART blocks from the next, farther than the server's view
 *   distance (4 chunks), so no bot sees another, as on a real map; it works beside its home, the dense's plan.
 */

/** Ten chunks: two bots' views (4 chunks each way) never meet. */
const SPREAD_APART = 160;
/** A dense column: a walk of WALK east ends one block short of the next home. */
const DENSE_X = 5;
/**
 * A dense row: the block a bot places (two south of its row) lies two blocks short of the next row. (Rows 3 apart,
 * the block beside the next row's walk, failed 133 of 300 plans by the deadline of their place and dig steps.)
 */
const DENSE_Z = 5;
/** The dense grid's rows of twenty: 300 bots within 100 × 75 blocks, every bot in every other's view. */
const DENSE_PER_ROW = 20;
/** How far each bot walks east from its home. */
const WALK = 4;
/** The spread's rows of ten. */
const PER_ROW = 10;
/** The superflat ground's top is y=4; a bot stands on it at y=5. */
const STAND_Y = 5;

/** The crowd's spawn: the middle of the flat scenario's spawn block (0, 5, 0). */
const CROWD_SPAWN = { x: 0.5, y: STAND_Y, z: 0.5 };

/** Where bot i of `bots` stands when its plan starts (and where the save puts it as it joins, but for the crowd's). */
export function layoutHome(layout: Layout, i: number, bots: number): { x: number; y: number; z: number } {
  if (layout === 'crowd') return CROWD_SPAWN;
  if (layout === 'spread') {
    const [column, row] = [i % PER_ROW, Math.floor(i / PER_ROW)];
    return { x: column * SPREAD_APART, y: STAND_Y, z: row * SPREAD_APART };
  }
  // Centred on the spawn (0, 0), the grid's rows as many north of it as south; each bot in the middle of its block,
  // clear of the blocks its neighbours place.
  const [column, row, rows] = [i % DENSE_PER_ROW, Math.floor(i / DENSE_PER_ROW), Math.ceil(bots / DENSE_PER_ROW)];
  const [x, z] = [(column - DENSE_PER_ROW / 2) * DENSE_X, (row - Math.floor(rows / 2)) * DENSE_Z];
  return { x: x + 0.5, y: STAND_Y, z: z + 0.5 };
}

/**
 * Bot i's plan in the layout: the crowd's walk to its spot on its grid; or walk WALK blocks east of its home; then
 * place a block two south of there and dig it.
 */
export function layoutPlan(layout: Layout, i: number, bots: number): Step[] {
  if (layout === 'crowd') return fleetPlan(i, bots);
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
 * bench's 4 dirt (a player the save knows gets no scenario inventory); its chunks are the generator's. Null for the
 * crowd, which needs none.
 */
export function layoutWorldFolder(layout: Layout, folder: string, names: readonly string[], scenario: string) {
  if (layout === 'crowd') return null;
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
