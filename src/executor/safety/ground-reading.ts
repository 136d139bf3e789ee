import type { EntityInfo, Vec3Like } from '../../contracts/world.js';
import { HOSTILE_STATS, lineOfSight, type MobTerrain } from '../../world/mob-rules/index.js';
import { blocksMovement } from '../../world/mob-rules/terrain.js';
import { EYE_HEIGHT } from '../../world/reach.js';
import type { HostileSeen } from './observation.js';

/*
 * The ground a fight happens on, as the fight's estimate reads it (fight-estimate.ts shareLanded): whether each walker
 * sees the bot (one that does not stays where it is, as a zombie hunts a player it sees, and the bot must walk up to
 * it through whatever hides it), and how many of the cells around the bot block its steps back. Both worlds' terrain
 * gives the same reading.
 */

/**
 * For a melee kind: whether the line from its eyes to the bot's crosses no block (mob-rules' lineOfSight, the one
 * an archer's reach is judged by). Empty for an archer or a creeper (their cost is not a walker's blows).
 */
export function groundOfWalker(terrain: MobTerrain, bot: Vec3Like, mob: EntityInfo): Pick<HostileSeen, 'seesBot'> {
  const stats = HOSTILE_STATS[mob.name];
  if (stats?.bow || stats?.fuse) return {};
  const eyes = { x: mob.position.x, y: mob.position.y + (stats?.eyeHeight ?? EYE_HEIGHT), z: mob.position.z };
  return { seesBot: lineOfSight(terrain, eyes, { x: bot.x, y: bot.y + EYE_HEIGHT, z: bot.z }) };
}

/** The eight cells around the bot's feet that block a step into them, at its feet or its head (a wall, a trunk, a step). */
export function blockedAround(terrain: MobTerrain, at: Vec3Like): number {
  const [x, y, z] = [Math.floor(at.x), Math.floor(at.y), Math.floor(at.z)];
  let blocked = 0;
  for (const dx of [-1, 0, 1])
    for (const dz of [-1, 0, 1])
      if ((dx !== 0 || dz !== 0) && [0, 1].some((up) => blocksMovement(terrain.block(x + dx, y + up, z + dz))))
        blocked++;
  return blocked;
}
