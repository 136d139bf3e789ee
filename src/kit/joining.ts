import type { EntityInfo, Vec3Like, WorldPort } from '../contracts/index.js';
import {
  HOSTILE_STATS,
  lineOfSight,
  MELEE_REACH,
  mobSize,
  type MobTerrain,
  PLAYER_WIDTH,
} from '../world/mob-rules/index.js';
import { EYE_HEIGHT } from '../world/reach.js';

/*
 * When a hostile the fight was not judged on joins it (break-off.ts): it comes within the reach that lets it hurt the
 * bot before the answer a judgement made now would start. Read from the mob rules both worlds run.
 */

/**
 * Seconds ahead a mob coming is judged: the judgement and the step that starts its answer take a moment, and the
 * slowest answer that still works with a walker coming, a pillar, has the bot in reach for its first two blocks, about
 * 1 s (aftermath.ts PILLAR_EXPOSED_S). Later, a spider is on the bot before any shelter stands; a zombie walks 4.6
 * blocks in that time, a spider 7.8 (and its leap, from 4 blocks, lands it 2.3 blocks on in 0.4 s, well within).
 */
export const JOIN_AHEAD_S = 2;

/**
 * Blocks from the bot (feet to feet) within which a hostile of `name` has joined a fight: a walker's melee reach (its
 * box grown by MELEE_REACH meets the bot's) plus its walk over JOIN_AHEAD_S; a creeper's ignition range plus its walk
 * (its fuse lights there); an archer's bow range, along a line of sight. Null for a kind the rules do not know.
 */
export function joinDistance(name: string): number | null {
  const stats = HOSTILE_STATS[name];
  if (!stats) return null;
  if (stats.bow) return stats.bow.range;
  const ahead = stats.speed * JOIN_AHEAD_S;
  if (stats.fuse) return stats.fuse.igniteWithin + ahead;
  return mobSize(name).width / 2 + MELEE_REACH + PLAYER_WIDTH / 2 + ahead;
}

/**
 * A look at the hostiles about, to be repeated: the first one not in `judged` that came within its join distance of
 * the bot since the last look, or null. The ones within it at the first look (when the fight began) were there when
 * it was judged: only one that leaves and comes back joins.
 */
export function joiningAt(world: WorldPort, judged: ReadonlySet<number>): () => EntityInfo | null {
  const within = new Set<number>();
  const look = () => {
    const at = world.position();
    const inside = world.entities().filter((e) => e.kind === 'hostile' && !judged.has(e.id) && inReach(world, e, at));
    const joined = inside.find((e) => !within.has(e.id)) ?? null;
    within.clear();
    for (const e of inside) within.add(e.id);
    return joined;
  };
  look();
  return look;
}

function inReach(world: WorldPort, mob: EntityInfo, at: Vec3Like): boolean {
  const reach = joinDistance(mob.name);
  if (reach === null) return false;
  const { x, y, z } = mob.position;
  if (Math.hypot(x - at.x, y - at.y, z - at.z) > reach) return false;
  const eyeHeight = HOSTILE_STATS[mob.name]?.bow ? HOSTILE_STATS[mob.name]!.eyeHeight : null;
  if (eyeHeight === null) return true;
  const terrain: MobTerrain = { block: (bx, by, bz) => world.blockAt({ x: bx, y: by, z: bz })?.name ?? null };
  return lineOfSight(terrain, { x, y: y + eyeHeight, z }, { x: at.x, y: at.y + EYE_HEIGHT, z: at.z });
}
