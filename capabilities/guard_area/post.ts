import { HOSTILE_MOBS, type Observation, type ObservationQuery, type Vec3Like } from 'verbtree';
import type { GuardAreaArgs } from './schema.js';

/** Each step's post, kept per step as store_items keeps its chest. */
const posts = new WeakMap<object, Vec3Like>();

/** The hostiles near the post at dispatch (those inside are what acceptance names as to be dead). */
export function guardQuery(args: GuardAreaArgs): ObservationQuery {
  return { entities: { names: HOSTILE_MOBS, within: args.radius + 40 } };
}

/** The step's post: the one named, else the cell the bot stood in at dispatch (kept for the whole step). */
export function postOf(args: GuardAreaArgs, pre?: Observation): Vec3Like | null {
  if (args.center) return args.center;
  if (!posts.has(args) && pre)
    posts.set(args, { x: Math.floor(pre.position.x), y: Math.floor(pre.position.y), z: Math.floor(pre.position.z) });
  return posts.get(args) ?? null;
}

export const within = (a: Vec3Like, b: Vec3Like, radius: number) =>
  Math.hypot(a.x - b.x - 0.5, a.z - b.z - 0.5) <= radius;
