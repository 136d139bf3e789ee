import type { EntityInfo, Vec3Like } from '../../contracts/world.js';
import { HOSTILE_STATS, lineOfSight, type MobTerrain } from '../../world/mob-rules/index.js';
import { EYE_HEIGHT } from '../../world/reach.js';
import type { HostileSeen } from './observation.js';

/*
 * The ground between a walker and the bot, as the fight's estimate reads it (fight-estimate.ts shareLanded): whether
 * the walker sees the bot. One that does not stays where it is (a zombie hunts a player it sees), and the bot must
 * walk up to it through whatever hides it. Both worlds' terrain gives the same reading.
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
