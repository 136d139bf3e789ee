/**
 * A generated survival world, the same block for the same seed and cell in
 * every world that asks: rolling hills of grass over dirt over stone, sand and
 * water in the hollows, oak trees, coal and iron ore in the stone, and one cave
 * near spawn whose stair-stepped tunnel a bot can walk down to a chamber with
 * ore in its walls. Coordinates are the embedded server's (bedrock at y=0).
 *
 * It is a pure function of (seed, x, y, z): the embedded server's generator
 * fills chunks from it and SimWorld reads its ground from it, so a plan meets
 * the same terrain in both.
 */
import { deriveSeed } from '../../random.js';

export const SEA_LEVEL = 20;
const BASE_HEIGHT = 24;
const DIRT_DEPTH = 3;
const TREE_CHANCE = 0.012;
/** No tree grows this close to spawn, so a bot's first step is never into a trunk. */
const CLEAR_AROUND_SPAWN = 3;
const COAL_CHANCE = 0.02;
/** Iron lies at this height and below (the sea is at 20, hills top out near 31). */
const IRON_BELOW = 18;
const IRON_CHANCE = 0.012;
/** On a cave's walls ore is richer, so a cave always shows some. */
const WALL_COAL_CHANCE = 0.12;
const WALL_IRON_CHANCE = 0.1;
const REGION = 16;

export interface Terrain {
  readonly seed: number;
  /** The block at a cell (air above the ground, water below sea level). */
  blockAt(x: number, y: number, z: number): string;
  /** y of the column's top solid block (ground, not trees). */
  groundHeight(x: number, z: number): number;
  /** A dry cell on the ground nearest to (0, 0), clear of trees: where a bot stands. */
  readonly spawn: { x: number; y: number; z: number };
  /** Every block name the terrain may hold. */
  readonly blockNames: readonly string[];
  /** The mobs standing in it when it starts: passive ones near spawn, hostile ones farther out, away from the cave. */
  readonly mobs: readonly GeneratedMob[];
}

export interface GeneratedMob {
  name: string;
  x: number;
  y: number;
  z: number;
}

const PASSIVE = ['cow', 'sheep', 'pig', 'chicken'] as const;
const HOSTILE = ['zombie', 'skeleton'] as const;

export const SURVIVAL_BLOCKS = [
  'bedrock',
  'stone',
  'dirt',
  'grass_block',
  'sand',
  'water',
  'oak_log',
  'oak_leaves',
  'coal_ore',
  'iron_ore',
] as const;

/** A well-mixed 32-bit hash of integers, as a number in [0, 1). */
function hash(seed: number, a: number, b: number, c = 0): number {
  let h = seed ^ Math.imul(a, 0x27d4eb2d) ^ Math.imul(b, 0x165667b1) ^ Math.imul(c, 0x1b873593);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

const smooth = (t: number) => t * t * (3 - 2 * t);

/** Value noise in [-1, 1], smooth between integer lattice points. */
function valueNoise(seed: number, x: number, z: number): number {
  const x0 = Math.floor(x);
  const z0 = Math.floor(z);
  const tx = smooth(x - x0);
  const tz = smooth(z - z0);
  const at = (i: number, j: number) => hash(seed, x0 + i, z0 + j) * 2 - 1;
  const top = at(0, 0) + (at(1, 0) - at(0, 0)) * tx;
  const bottom = at(0, 1) + (at(1, 1) - at(0, 1)) * tx;
  return top + (bottom - top) * tz;
}

interface Cave {
  /** Carved cells, by key. */
  air: Set<number>;
  /** The carved cells' bounding box grown by one: a cell outside it neither is nor touches the cave. */
  min: { x: number; y: number; z: number };
  max: { x: number; y: number; z: number };
}

// Cells and columns pack into one safe integer (|x|, |z| < 2^20, 0 <= y < 1024): blockAt runs for every
// cell of a chunk and of a block search, so it allocates nothing.
const XZ = 2 ** 20;
const key = (x: number, y: number, z: number) => ((x + XZ) * 2 * XZ + (z + XZ)) * 1024 + y;
const columnKey = (x: number, z: number) => (x + XZ) * 2 * XZ + (z + XZ);

export function survivalTerrain(seed: number): Terrain {
  const hillSeed = deriveSeed(seed, 'hills');
  const detailSeed = deriveSeed(seed, 'detail');
  const treeSeed = deriveSeed(seed, 'trees');
  const oreSeed = deriveSeed(seed, 'ores');
  const heights = new Map<number, number>();

  const groundHeight = (x: number, z: number): number => {
    let h = heights.get(columnKey(x, z));
    if (h === undefined) {
      h = Math.round(BASE_HEIGHT + 5 * valueNoise(hillSeed, x / 24, z / 24) + 2 * valueNoise(detailSeed, x / 8, z / 8));
      heights.set(columnKey(x, z), h);
    }
    return h;
  };
  const isDry = (x: number, z: number) => groundHeight(x, z) > SEA_LEVEL;

  const spawn = findSpawn(groundHeight, isDry);
  const cave = carveCave(seed, spawn, groundHeight);

  const isTreeAt = (x: number, z: number): boolean => {
    if (Math.abs(x - spawn.x) <= CLEAR_AROUND_SPAWN && Math.abs(z - spawn.z) <= CLEAR_AROUND_SPAWN) return false;
    if (!isDry(x, z) || groundHeight(x, z) <= SEA_LEVEL + 1) return false;
    if (cave.air.has(key(x, groundHeight(x, z), z)) || cave.air.has(key(x, groundHeight(x, z) + 1, z))) return false;
    if (hash(treeSeed, x, z) >= TREE_CHANCE) return false;
    // Trunks stand at least three apart: the lower hash of two close candidates yields.
    for (let dx = -2; dx <= 2; dx++)
      for (let dz = -2; dz <= 2; dz++)
        if ((dx || dz) && hash(treeSeed, x + dx, z + dz) < Math.min(TREE_CHANCE, hash(treeSeed, x, z))) return false;
    return true;
  };
  const trunkHeight = (x: number, z: number) => 4 + Math.floor(hash(treeSeed, z, x) * 2);

  // Tree cells above the ground, per 16×16 region, computed once a region is asked for.
  const treeRegions = new Map<number, Map<number, string>>();
  const treeCells = (x: number, z: number): Map<number, string> => {
    const rx = Math.floor(x / REGION);
    const rz = Math.floor(z / REGION);
    const regionKey = columnKey(rx, rz);
    let cells = treeRegions.get(regionKey);
    if (cells) return cells;
    cells = new Map();
    for (let tx = rx * REGION - 2; tx < (rx + 1) * REGION + 2; tx++) {
      for (let tz = rz * REGION - 2; tz < (rz + 1) * REGION + 2; tz++) {
        if (!isTreeAt(tx, tz)) continue;
        const base = groundHeight(tx, tz) + 1;
        const top = base + trunkHeight(tx, tz) - 1;
        for (let y = top - 1; y <= top + 1; y++) {
          const reach = y === top + 1 ? 1 : 2;
          for (let dx = -reach; dx <= reach; dx++)
            for (let dz = -reach; dz <= reach; dz++)
              if (!cells.has(key(tx + dx, y, tz + dz))) cells.set(key(tx + dx, y, tz + dz), 'oak_leaves');
        }
        for (let y = base; y <= top; y++) cells.set(key(tx, y, tz), 'oak_log');
      }
    }
    treeRegions.set(regionKey, cells);
    return cells;
  };

  const nearCave = (x: number, y: number, z: number) =>
    x >= cave.min.x && x <= cave.max.x && y >= cave.min.y && y <= cave.max.y && z >= cave.min.z && z <= cave.max.z;
  const isCarved = (x: number, y: number, z: number) => nearCave(x, y, z) && cave.air.has(key(x, y, z));
  const besideCave = (x: number, y: number, z: number) =>
    nearCave(x, y, z) &&
    (isCarved(x + 1, y, z) ||
      isCarved(x - 1, y, z) ||
      isCarved(x, y + 1, z) ||
      isCarved(x, y - 1, z) ||
      isCarved(x, y, z + 1) ||
      isCarved(x, y, z - 1));

  const blockAt = (x: number, y: number, z: number): string => {
    if (y < 0) return 'air';
    if (y === 0) return 'bedrock';
    const h = groundHeight(x, z);
    if (y > h) {
      if (y <= SEA_LEVEL) return 'water';
      return treeCells(x, z).get(key(x, y, z)) ?? 'air';
    }
    if (isCarved(x, y, z)) return 'air';
    const beach = h <= SEA_LEVEL + 1;
    if (y === h) return beach ? 'sand' : 'grass_block';
    if (y > h - 1 - DIRT_DEPTH) return beach ? 'sand' : 'dirt';
    const wall = besideCave(x, y, z);
    const roll = hash(oreSeed, x, y, z);
    if (roll < (wall ? WALL_COAL_CHANCE : COAL_CHANCE)) return 'coal_ore';
    if (y <= IRON_BELOW && roll < (wall ? WALL_COAL_CHANCE + WALL_IRON_CHANCE : COAL_CHANCE + IRON_CHANCE))
      return 'iron_ore';
    return 'stone';
  };

  const mobs = placeMobs(seed, spawn, cave, groundHeight, blockAt);
  return { seed, blockAt, groundHeight, spawn, blockNames: SURVIVAL_BLOCKS, mobs };
}

/**
 * Four passive mobs 6–14 blocks from spawn (farther where that ring holds no grass) and two hostile ones 24–32 blocks out on the side away from the
 * cave, each on dry open ground (no tree, no water, head room). The hostile ones stand well beyond the
 * executor's flee radius from spawn and the way down; a bot that wanders near one meets it as on a server.
 */
function placeMobs(
  seed: number,
  spawn: { x: number; z: number },
  cave: Cave,
  groundHeight: (x: number, z: number) => number,
  blockAt: (x: number, y: number, z: number) => string,
): GeneratedMob[] {
  const mobSeed = deriveSeed(seed, 'mobs');
  const caveAngle = Math.atan2((cave.min.z + cave.max.z) / 2 - spawn.z, (cave.min.x + cave.max.x) / 2 - spawn.x);
  const mobs: GeneratedMob[] = [];
  // Horizontal distance to the cave's box: the way down and the chamber.
  const fromCave = (x: number, z: number) =>
    Math.hypot(Math.max(cave.min.x - x, 0, x - cave.max.x), Math.max(cave.min.z - z, 0, z - cave.max.z));
  const place = (
    name: string,
    i: number,
    near: number,
    far: number,
    around: number,
    spread: number,
    clearOfCave = 0,
  ) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      // Widening the arc as attempts fail, for a side of the map under water.
      const angle = around + (hash(mobSeed, i, attempt, 0) - 0.5) * Math.min(Math.PI * 2, spread * (1 + attempt / 40));
      // And farther out after the first forty: a spawn on a wide beach or bare stone has no grass within `far`.
      const reach = far + Math.max(0, attempt - 40) * 0.15;
      const distance = near + hash(mobSeed, i, attempt, 1) * (reach - near);
      const x = Math.round(spawn.x + Math.cos(angle) * distance);
      const z = Math.round(spawn.z + Math.sin(angle) * distance);
      const y = groundHeight(x, z) + 1;
      if (
        y <= SEA_LEVEL + 1 ||
        blockAt(x, y - 1, z) !== 'grass_block' ||
        blockAt(x, y, z) !== 'air' ||
        blockAt(x, y + 1, z) !== 'air'
      )
        continue;
      if (mobs.some((m) => m.x === x && m.z === z) || fromCave(x, z) <= clearOfCave) continue;
      mobs.push({ name, x, y, z });
      return;
    }
  };
  PASSIVE.forEach((name, i) => place(name, i, 6, 14, 0, Math.PI * 2));
  HOSTILE.forEach((name, i) => place(name, 10 + i, 24, 32, caveAngle + Math.PI, Math.PI / 2, 9));
  return mobs;
}

/** The dry column nearest to (0, 0), searched in growing squares. */
function findSpawn(
  groundHeight: (x: number, z: number) => number,
  isDry: (x: number, z: number) => boolean,
): { x: number; y: number; z: number } {
  for (let r = 0; r < 64; r++) {
    for (let x = -r; x <= r; x++) {
      for (let z = -r; z <= r; z++) {
        if (Math.max(Math.abs(x), Math.abs(z)) !== r || !isDry(x, z) || groundHeight(x, z) <= SEA_LEVEL + 1) continue;
        return { x: x + 0, y: groundHeight(x, z) + 1, z: z + 0 }; // + 0 turns -0 into 0
      }
    }
  }
  return { x: 0, y: Math.max(groundHeight(0, 0), SEA_LEVEL) + 1, z: 0 };
}

/**
 * One cave 10–14 blocks from spawn: a two-high, two-wide tunnel stepping down
 * one block per block walked from an opening in the ground to a 7×3×7 chamber
 * ten blocks under the surface.
 */
function carveCave(
  seed: number,
  spawn: { x: number; z: number },
  groundHeight: (x: number, z: number) => number,
): Cave {
  const cave: Cave = {
    air: new Set(),
    min: { x: Infinity, y: Infinity, z: Infinity },
    max: { x: -Infinity, y: -Infinity, z: -Infinity },
  };
  const carve = (x: number, y: number, z: number) => {
    cave.air.add(key(x, y, z));
    cave.min = { x: Math.min(cave.min.x, x - 1), y: Math.min(cave.min.y, y - 1), z: Math.min(cave.min.z, z - 1) };
    cave.max = { x: Math.max(cave.max.x, x + 1), y: Math.max(cave.max.y, y + 1), z: Math.max(cave.max.z, z + 1) };
  };
  const angle = hash(deriveSeed(seed, 'cave'), 0, 0) * Math.PI * 2;
  const [dx, dz] =
    Math.abs(Math.cos(angle)) > Math.abs(Math.sin(angle))
      ? [Math.sign(Math.cos(angle)), 0]
      : [0, Math.sign(Math.sin(angle))];
  const start = 10 + Math.floor(hash(deriveSeed(seed, 'cave'), 1, 0) * 5);
  // Sideways to the tunnel's direction, so it is two wide.
  const [sx, sz] = [dz, dx];
  let x = spawn.x + dx * start;
  let z = spawn.z + dz * start;
  const surface = groundHeight(x, z);
  // The chamber lies deep under every column above it (a valley there must not open it to the sky),
  // and low enough for iron.
  const ahead = (n: number, j: number) => groundHeight(x + dx * n + sx * j, z + dz * n + sz * j);
  let lowest = surface;
  for (let n = 8; n <= 24; n++) for (let j = -4; j <= 4; j++) lowest = Math.min(lowest, ahead(n, j));
  const floor = Math.min(lowest - 9, IRON_BELOW - 3);
  for (let y = surface; y > floor; y--) {
    for (const w of [0, 1]) for (let h = 0; h < 3; h++) carve(x + sx * w, y + h, z + sz * w);
    x += dx;
    z += dz;
  }
  for (let i = -1; i <= 5; i++)
    for (let j = -3; j <= 3; j++)
      for (let h = 0; h < 3; h++) carve(x + dx * i + sx * j, floor + h, z + dz * i + sz * j);
  return cave;
}
