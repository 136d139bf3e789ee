import { type EntityInfo, isSolidBlock, type RunContext, type Vec3Like, type WorldPort } from 'verbtree';
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
 * How near to walk: beside the drop, diagonals included. Its own cell may have no headroom (a log above it, a
 * nook dug into a wall), and a diagonal neighbour is within the pickup radius of both worlds (SimWorld 1.5,
 * flying-squid 1.75, vanilla's reach box one block round the body), so a bot already there does not walk.
 */
const PICKUP_GOAL_RANGE = Math.SQRT2 + 0.01;
/** A drop falls a block in well under this (vanilla gravity, a few ticks a block once it is falling). */
const FALL_MS_PER_BLOCK = 250;

/**
 * Walks to where `drop` rests and waits until the server has handed it over: longer for a drop still in the air,
 * which lands beside (or on) the bot. A drop still there after that (it bounced off, or landed a cell away) is
 * looked for again where it now lies, once. True when it was picked up; a walk that fails throws.
 */
export async function pickUp(ctx: RunContext<unknown>, drop: EntityInfo): Promise<boolean> {
  const { world } = ctx;
  const current = () => world.entities().find((entity) => entity.id === drop.id);
  for (let look = 0; look < 2; look++) {
    const seen = current();
    if (!seen) return true;
    const rest = restingCell(world, seen.position);
    await ctx.actuate('goto', () =>
      world.goto({ kind: 'near', ...rest, range: PICKUP_GOAL_RANGE }, { signal: ctx.signal }),
    );
    const fall = Math.max(0, seen.position.y - rest.y);
    if (await waitUntil(ctx, () => current() === undefined, HANDOVER_MS + fall * FALL_MS_PER_BLOCK)) return true;
  }
  return false;
}
