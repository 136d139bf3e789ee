import type { Vec3Like, WorldPort } from 'verbtree';

/**
 * Where each step started (the bot's feet when its guard first looked), keyed by the step's parsed arguments, which
 * the executor hands to every look at one step: its guard, its expectations and every attempt's leaves.
 */
const origins = new WeakMap<object, Vec3Like>();

export function originOf(args: object, world: WorldPort): Vec3Like {
  let origin = origins.get(args);
  if (!origin) {
    const { x, y, z } = world.position();
    origin = { x, y, z };
    origins.set(args, origin);
  }
  return origin;
}

const distance = (a: Vec3Like, b: Vec3Like) => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
const centre = (c: Vec3Like) => ({ x: c.x + 0.5, y: c.y + 0.5, z: c.z + 0.5 });

/**
 * The exposed blocks of `names` within `radius` of the bot, and within `radius` of where the step started: a step
 * the safety monitor interrupted (a flee of 16 blocks from a zombie) resumes wherever the flight ended, and the
 * blocks it was sent for are still where they were, perhaps further than `radius` from there. Nearest to the bot
 * first, at most `count` of those around the bot plus those found around the start.
 */
export function blocksInRadius(
  world: WorldPort,
  args: { radius: number },
  names: readonly string[],
  count: number,
): Vec3Like[] {
  const { radius } = args;
  const here = world.position();
  const found = world.findBlocks({ names, maxDistance: radius, count, exposed: true });
  const origin = originOf(args, world);
  const away = distance(here, origin);
  if (away <= 1) return found;
  // The block search measures from the bot: a sphere round it wide enough to hold the one round the start.
  const seen = new Set(found.map((c) => `${c.x},${c.y},${c.z}`));
  const aroundStart = world
    .findBlocks({ names, maxDistance: radius + away, count: Math.max(count, START_SEARCH_COUNT), exposed: true })
    .filter((c) => distance(centre(c), origin) <= radius && !seen.has(`${c.x},${c.y},${c.z}`));
  return [...found, ...aroundStart];
}

/** How many blocks the wider search round the start looks at (nearest to the bot first), before keeping those in range. */
const START_SEARCH_COUNT = 256;
