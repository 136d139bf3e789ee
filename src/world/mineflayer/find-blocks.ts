import type { Bot } from 'mineflayer';
import type { BlockQuery, Vec3Like } from '../../contracts/world.js';

/**
 * The nearest blocks of the named kinds that the bot's loaded chunks hold, nearest first, with SimWorld's
 * semantics (distance from the feet to the block's centre, ties broken by coordinates).
 *
 * Not mineflayer's bot.findBlocks, for two reasons measured on the embedded server:
 * - it is wrong: it walks chunk sections in rings of an octahedron (sum of the three section offsets) of
 *   apothem ceil((r + 8) / 16), which leaves out sections on the diagonals that lie within r (a log 27
 *   blocks away along x, y and z at r = 48), and it stops after the first ring that found `count` blocks
 *   though a later ring can hold nearer ones;
 * - it is slow: a section without a palette of its own (all air, all stone) counts as "might hold it", and
 *   every cell of such a section is read as a Block object, about 1.7 s at r = 48, which held the event
 *   loop long enough for the server to kick the bot (KeepAliveTimeout).
 * Here every section whose box comes within r is visited, nearest box first, until the next box is farther
 * than the `count`-th block found; a section whose palette holds no wanted state is skipped, and cells are
 * compared as state ids.
 */
export function findBlocksInChunks(bot: Bot, query: BlockQuery): Vec3Like[] {
  const exposed = exposureOf(bot);
  const wanted = wantedStates(bot, query.names);
  if (wanted.size === 0 || query.count <= 0) return [];
  const feet = bot.entity.position;
  const maxSq = query.maxDistance * query.maxDistance;
  const found: Found[] = [];
  let enough = Infinity;
  for (const section of sectionsWithin(bot, feet, query.maxDistance)) {
    if (section.distanceSq > Math.min(maxSq, enough)) break;
    scanSection(section, wanted, (x, y, z) => {
      const distanceSq = (x + 0.5 - feet.x) ** 2 + (y + 0.5 - feet.y) ** 2 + (z + 0.5 - feet.z) ** 2;
      // The distance first: it is cheap, and the open-face check reads six cells.
      if (distanceSq > Math.min(maxSq, enough) || (query.exposed && !exposed(x, y, z))) return;
      found.push({ x, y, z, distanceSq });
    });
    if (found.length >= query.count) {
      found.sort(nearestFirst);
      found.length = query.count;
      enough = found[query.count - 1]!.distanceSq;
    }
  }
  return found.sort(nearestFirst).map(({ x, y, z }) => ({ x, y, z }));
}

interface Found extends Vec3Like {
  distanceSq: number;
}

const nearestFirst = (a: Found, b: Found) => a.distanceSq - b.distanceSq || a.x - b.x || a.y - b.y || a.z - b.z;

/** The parts of prismarine-chunk's 1.18+ column and section this search reads. */
interface SectionView {
  /** The states the section holds, where it keeps a palette of its own; absent for a direct (global) one. */
  palette?: readonly number[];
  get(local: { x: number; y: number; z: number }): number;
}
interface ColumnView {
  sections: (SectionView | null | undefined)[];
  getBlockStateId(local: { x: number; y: number; z: number }): number;
}

interface SectionAt {
  section: SectionView;
  /** The section's lowest corner, in blocks. */
  x: number;
  y: number;
  z: number;
  /** Squared distance from the feet to the nearest block centre the section holds. */
  distanceSq: number;
}

const SIZE = 16;

/** The world's lowest block and its height, which mineflayer keeps on bot.game from 1.18 (0 and 256 before). */
function heightsOf(bot: Bot): { minY: number; height: number } {
  const { minY = 0, height = 256 } = bot.game as { minY?: number; height?: number };
  return { minY, height };
}

/** Every loaded section with a block centre within `radius` of the feet, nearest first. */
function sectionsWithin(bot: Bot, feet: Vec3Like, radius: number): SectionAt[] {
  const { minY, height } = heightsOf(bot);
  const sectionCount = height / SIZE;
  const range = (at: number) => [Math.floor((at - radius) / SIZE), Math.floor((at + radius) / SIZE)] as const;
  // The distance along one axis from `at` to the nearest block centre of the section starting at `start`.
  const gap = (at: number, start: number) => Math.max(0, start + 0.5 - at, at - (start + SIZE - 0.5));
  const [x0, x1] = range(feet.x);
  const [y0, y1] = range(feet.y - minY);
  const [z0, z1] = range(feet.z);
  const sections: SectionAt[] = [];
  for (let cx = x0; cx <= x1; cx++)
    for (let cz = z0; cz <= z1; cz++) {
      const column = bot.world.getColumn(cx, cz) as unknown as ColumnView | null;
      if (!column) continue;
      for (let sy = Math.max(0, y0); sy <= Math.min(sectionCount - 1, y1); sy++) {
        const section = column.sections[sy];
        if (!section) continue;
        const [x, y, z] = [cx * SIZE, sy * SIZE + minY, cz * SIZE];
        const distanceSq = gap(feet.x, x) ** 2 + gap(feet.y, y) ** 2 + gap(feet.z, z) ** 2;
        if (distanceSq <= radius * radius) sections.push({ section, x, y, z, distanceSq });
      }
    }
  return sections.sort((a, b) => a.distanceSq - b.distanceSq);
}

/** Calls `hit` with each cell of the section that holds a wanted state; none when its palette holds none. */
function scanSection(
  { section, x, y, z }: SectionAt,
  wanted: ReadonlySet<number>,
  hit: (x: number, y: number, z: number) => void,
): void {
  if (section.palette && !section.palette.some((state) => wanted.has(state))) return;
  const local = { x: 0, y: 0, z: 0 };
  for (local.y = 0; local.y < SIZE; local.y++)
    for (local.z = 0; local.z < SIZE; local.z++)
      for (local.x = 0; local.x < SIZE; local.x++)
        if (wanted.has(section.get(local))) hit(x + local.x, y + local.y, z + local.z);
}

/** Every state id of the named blocks (a log has one per axis, a furnace one per facing and lit). */
function wantedStates(bot: Bot, names: readonly string[]): Set<number> {
  const states = new Set<number>();
  for (const name of names) {
    const block = bot.registry.blocksByName[name];
    if (!block) continue;
    for (let state = block.minStateId; state <= block.maxStateId; state++) states.add(state);
  }
  return states;
}

/** Which state ids a body can occupy (air, water, plants), computed once per registry. */
const openStatesByRegistry = new WeakMap<object, Uint8Array>();

/** Whether a cell has a face open to a cell a body can occupy, read from the client's chunks. */
function exposureOf(bot: Bot): (x: number, y: number, z: number) => boolean {
  let open = openStatesByRegistry.get(bot.registry);
  if (!open) {
    const blocks = bot.registry.blocksArray;
    const states = Math.max(...blocks.map((block) => block.maxStateId)) + 1;
    open = new Uint8Array(states);
    for (const block of blocks) if (block.boundingBox === 'empty') open.fill(1, block.minStateId, block.maxStateId + 1);
    openStatesByRegistry.set(bot.registry, open);
  }
  const openStates = open;
  // A cell in a chunk the client has not loaded counts as closed: nothing says it is open.
  const { minY, height } = heightsOf(bot);
  const isOpen = (x: number, y: number, z: number) => {
    if (y < minY || y >= minY + height) return true;
    const column = bot.world.getColumn(Math.floor(x / SIZE), Math.floor(z / SIZE)) as unknown as ColumnView | null;
    if (!column) return false;
    return openStates[column.getBlockStateId({ x: x & (SIZE - 1), y, z: z & (SIZE - 1) })] === 1;
  };
  return (x, y, z) =>
    isOpen(x + 1, y, z) ||
    isOpen(x - 1, y, z) ||
    isOpen(x, y + 1, z) ||
    isOpen(x, y - 1, z) ||
    isOpen(x, y, z + 1) ||
    isOpen(x, y, z - 1);
}
