import {
  type EntityInfo,
  isSolidBlock,
  type NavigationGoal,
  type RunContext,
  type Vec3Like,
  type WorldPort,
} from 'verbtree';
import { waitUntil } from '../pillar_up/wait.js';

/** Dropped item entities within `radius` of `from`, nearest first; only those of `item` when given. */
export function dropsNear(
  entities: readonly EntityInfo[],
  from: Vec3Like,
  radius: number,
  item?: string,
): EntityInfo[] {
  const distance = (e: EntityInfo) => Math.hypot(e.position.x - from.x, e.position.y - from.y, e.position.z - from.z);
  return entities
    .filter((e) => e.kind === 'item' && (item === undefined || e.item?.name === item) && distance(e) <= radius)
    .sort((a, b) => distance(a) - distance(b));
}

/** How far a drop is followed down; below that it is taken to be where it was seen. */
const MAX_FALL = 64;

/**
 * The cell a drop comes to rest in. A real server spawns a broken block's drop where the block was and lets it
 * fall (SimWorld puts it at rest at once), so a drop seen up a trunk is walked to where it lands, the first cell
 * above something solid below it; walking to where it was seen asks for a cell in the air, which no path reaches.
 */
export function restingCell(world: Pick<WorldPort, 'blockAt'>, position: Vec3Like): Vec3Like {
  const cell = { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
  for (let fall = 0; fall < MAX_FALL; fall++) {
    const below = world.blockAt({ x: cell.x, y: cell.y - 1, z: cell.z });
    // Unknown below (an unloaded chunk, the world's floor): it is taken to rest here.
    if (below === null || isSolidBlock(below.name)) break;
    cell.y--;
  }
  return cell;
}

/** A server hands a drop over a tick or two after the bot reaches it. */
const HANDOVER_MS = 500;
/**
 * How near the bot's feet must come to a drop, across its floor, for every world to hand it over: SimWorld within
 * 1.5 of the feet, flying-squid within 1.75, vanilla where the body's box grown by a block each way meets the item
 * (1.425 along each axis). A cell beside the drop's is not enough: a real server scatters a drop anywhere in its
 * cell, and a diagonal neighbour's middle is then up to 2.1 from it.
 */
const PICKUP_REACH = 1.25;
/** The first walk's goal: within a diagonal of the drop's cell (a cell beside it, a step up or down included). */
const BESIDE_RANGE = Math.SQRT2 + 0.01;
/** A drop falls a block in well under this (vanilla gravity, a few ticks a block once it is falling). */
const FALL_MS_PER_BLOCK = 250;
/** What a body cannot stand in even though it is not solid. */
const UNSTANDABLE = new Set(['water', 'lava', 'fire', 'soul_fire', 'bubble_column']);

/** Whether feet at `feet` are within every world's pickup reach of a drop lying at `at`, on the floor of cell `rest`. */
function withinPickupReach(feet: Vec3Like, rest: Vec3Like, at: Vec3Like): boolean {
  return Math.floor(feet.y) === rest.y && Math.hypot(feet.x - at.x, feet.z - at.z) <= PICKUP_REACH;
}

/** Whether a body fits in `cell`: something solid under it, and neither solid nor liquid nor fire at its feet or head. */
function standable(world: Pick<WorldPort, 'blockAt'>, cell: Vec3Like): boolean {
  const name = (dy: number) => world.blockAt({ x: cell.x, y: cell.y + dy, z: cell.z })?.name;
  const open = (dy: number) => {
    const block = name(dy);
    return block !== undefined && !isSolidBlock(block) && !UNSTANDABLE.has(block);
  };
  const floor = name(-1);
  return floor !== undefined && isSolidBlock(floor) && open(0) && open(1);
}

/**
 * Where to stand to pick up a drop lying at `at` in cell `rest`: of the cells on its floor, its own and the eight
 * round it, one a body fits in whose middle is nearest the drop (a walk ends near a cell's middle), nearest the bot
 * among equals. Its own cell when there is room, else the side it lies towards. Null when none has room.
 */
function standingCell(world: Pick<WorldPort, 'blockAt' | 'position'>, rest: Vec3Like, at: Vec3Like): Vec3Like | null {
  const feet = world.position();
  const from = (point: Vec3Like) => (cell: Vec3Like) => Math.hypot(cell.x + 0.5 - point.x, cell.z + 0.5 - point.z);
  const [toDrop, toBot] = [from(at), from(feet)];
  const cells: Vec3Like[] = [];
  for (let dx = -1; dx <= 1; dx++)
    for (let dz = -1; dz <= 1; dz++) cells.push({ x: rest.x + dx, y: rest.y, z: rest.z + dz });
  return (
    cells.filter((cell) => standable(world, cell)).sort((a, b) => toDrop(a) - toDrop(b) || toBot(a) - toBot(b))[0] ??
    null
  );
}

interface Lying {
  /** The cell it rests in, or will once it has fallen. */
  rest: Vec3Like;
  /** Where it lies (or will) on that cell's floor. */
  at: Vec3Like;
}

/**
 * Walks within pickup reach of a drop, unless already there. First within a diagonal of its cell, which the
 * pathfinder reaches by whichever cell it can (the drop's own may have no headroom: a log above it, a nook dug into
 * a wall); then, when the drop lies in the far corner of its cell, a step into the standable cell nearest it.
 */
async function approach(ctx: RunContext<unknown>, lying: () => Lying | null): Promise<void> {
  const { world } = ctx;
  const walk = (goal: NavigationGoal) => ctx.actuate('goto', () => world.goto(goal, { signal: ctx.signal }));
  let drop = lying();
  if (!drop || withinPickupReach(world.position(), drop.rest, drop.at)) return;
  await walk({ kind: 'near', ...drop.rest, range: BESIDE_RANGE });
  drop = lying();
  if (!drop || withinPickupReach(world.position(), drop.rest, drop.at)) return;
  const stand = standingCell(world, drop.rest, drop.at);
  const feet = world.position();
  const there =
    stand && stand.x === Math.floor(feet.x) && stand.y === Math.floor(feet.y) && stand.z === Math.floor(feet.z);
  if (stand && !there) await walk({ kind: 'block', ...stand });
}

/**
 * Walks within pickup reach of where `drop` rests and waits until the server has handed it over: longer for a drop
 * still in the air, which lands beside (or on) the bot. A drop still there after that (it bounced off, or landed a
 * cell away) is looked for again where it now lies, once. True when it was picked up; a walk that fails throws.
 */
export async function pickUp(ctx: RunContext<unknown>, drop: EntityInfo): Promise<boolean> {
  const { world } = ctx;
  const current = () => world.entities().find((entity) => entity.id === drop.id);
  const lying = (): Lying | null => {
    const seen = current();
    if (!seen) return null;
    const rest = restingCell(world, seen.position);
    return { rest, at: { x: seen.position.x, y: rest.y, z: seen.position.z } };
  };
  for (let look = 0; look < 2; look++) {
    const seen = current();
    if (!seen) return true;
    await approach(ctx, lying);
    const fall = Math.max(0, seen.position.y - restingCell(world, seen.position).y);
    if (await waitUntil(ctx, () => current() === undefined, HANDOVER_MS + fall * FALL_MS_PER_BLOCK)) return true;
  }
  return false;
}
