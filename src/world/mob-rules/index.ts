export {
  type Mob,
  type MobEvent,
  type MobMind,
  type MobPlayer,
  type MobWorld,
  arrowDamage,
  isDriven,
  newMind,
  provoke,
  tickMob,
  withinMeleeRange,
} from './brain.js';
export { HurtImmunity } from './hurt.js';
export { Despawner, type NightSpawning, nightSpawn } from './spawning.js';
export * from './stats.js';
export { type Cell, type MobTerrain, type Position, canStand, lineOfSight, skyOpenAbove } from './terrain.js';
export { advance, bodyOf, findWalk, MAX_DROP, MAX_STEP_UP, type MobBody, step } from './walk.js';
export { MobDirector, type MobHost } from './director.js';
export { type ArmourPiece, armourOf, armourPiece, damageAfterArmour } from './armour.js';
export * from './combat.js';
export { type BlastedBlocks, blastBlocks, blastDamage, blastDrops, exposure } from './explosion.js';
export { type LootEntry, type LootStack, MOB_LOOT, mobLoot } from './loot.js';
