import { PLAYER_WALK_SPEED } from '../actuator-rules.js';

/** Sprint-less walking speed of a player, blocks per second. */
export const WALK_SPEED = PLAYER_WALK_SPEED;
/** One block of walking, rounded to whole ms so virtual timestamps stay integers. */
export const WALK_STEP_MS = Math.round(1000 / WALK_SPEED);
export { EYE_HEIGHT, REACH } from '../reach.js';
/** A crafting table counts when it is this close (blocks, any axis). */
export const TABLE_RANGE = 4;
export const PICKUP_RANGE = 1.5;
export const EAT_MS = 1600;
export const CRAFT_MS = 250;
export const PLACE_MS = 50;
export const EQUIP_MS = 50;
/** A jump's feet pass one block up after about four ticks and land after twelve, as in vanilla. */
export const JUMP_RISE_MS = 200;
export const JUMP_AIRTIME_MS = 600;
export const MAX_STAT = 20;
/** Falls stop here, so a void world cannot drop the bot forever. */
export const LOWEST_Y = -128;
