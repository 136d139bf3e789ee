import type { BlockQuery, Vec3Like } from '../../contracts/world.js';
import { isPassable } from './block-data.js';
import type { Body } from './body.js';
import { type BlockGrid, keyX, keyY, keyZ } from './grid.js';
import type { Cell } from './terrain.js';

/**
 * The nearest cells holding any of the named blocks, nearest first; ties break by coordinates so results are
 * deterministic.
 */
export function findBlocks(grid: BlockGrid, body: Body, query: BlockQuery): Vec3Like[] {
  const wanted = new Set(query.names);
  const found: { cell: Cell; distanceSq: number }[] = [];
  const maxSq = query.maxDistance * query.maxDistance;
  const { feet } = body;
  const open = (x: number, y: number, z: number) => isPassable(grid.get(x, y, z));
  const exposed = (x: number, y: number, z: number) =>
    open(x + 1, y, z) ||
    open(x - 1, y, z) ||
    open(x, y + 1, z) ||
    open(x, y - 1, z) ||
    open(x, y, z + 1) ||
    open(x, y, z - 1);
  const consider = (x: number, y: number, z: number) => {
    if (query.exposed && !exposed(x, y, z)) return;
    const distanceSq = (x + 0.5 - feet.x) ** 2 + (y + 0.5 - feet.y) ** 2 + (z + 0.5 - feet.z) ** 2;
    if (distanceSq <= maxSq) found.push({ cell: { x, y, z }, distanceSq });
  };
  if (grid.groundBlockNames().some((name) => wanted.has(name))) {
    // Ground blocks are generated, not stored: scan the cube around the bot.
    const r = Math.ceil(query.maxDistance);
    const [cx, cy, cz] = [body.cellX(), body.cellY(), body.cellZ()];
    for (let x = cx - r; x <= cx + r; x++)
      for (let y = cy - r; y <= cy + r; y++)
        for (let z = cz - r; z <= cz + r; z++) if (wanted.has(grid.get(x, y, z))) consider(x, y, z);
  } else {
    for (const [key, name] of grid.explicitCells()) if (wanted.has(name)) consider(keyX(key), keyY(key), keyZ(key));
  }
  found.sort(
    (a, b) => a.distanceSq - b.distanceSq || a.cell.x - b.cell.x || a.cell.y - b.cell.y || a.cell.z - b.cell.z,
  );
  return found.slice(0, query.count).map((entry) => entry.cell);
}
