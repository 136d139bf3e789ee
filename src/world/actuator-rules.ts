import {
  type EntityInfo,
  isNight,
  NIGHT_ENDS,
  NIGHT_STARTS,
  type ObservationQuery,
  type Vec3Like,
  WorldError,
} from '../contracts/world.js';
import { EYE_HEIGHT } from './reach.js';
import { burnTicks, FUELS, fuelFor, smeltsInto } from './smelting.js';

/*
 * What both worlds refuse before an optional actuator runs, with the same
 * codes and words, so a capability meets the same failures in SimWorld as on
 * a real server.
 */

/** The longest chat message a server takes. */
export const MAX_CHAT_LENGTH = 256;

export function checkChat(message: string): void {
  if (message.trim() === '') throw new WorldError('guard_failed', 'cannot chat an empty message');
  if (message.length > MAX_CHAT_LENGTH)
    throw new WorldError(
      'guard_failed',
      `cannot chat ${message.length} characters: a server takes at most ${MAX_CHAT_LENGTH}`,
    );
  if (message.startsWith('/'))
    throw new WorldError('guard_failed', `"${message.split(' ')[0]}" is a command, not a chat message; chat says text`);
}

export function checkToss(item: string, count: number, held: number): void {
  if (!Number.isInteger(count) || count < 1)
    throw new WorldError('guard_failed', `cannot toss ${count} ${item}: give a whole number of at least 1`);
  if (held < count)
    throw new WorldError('precondition_missing', `cannot toss ${count} ${item}: the inventory holds ${held}`);
}

/** The blocks `deposit`/`withdraw` open, and the one `smelt` does. */
export const CHEST_BLOCKS: readonly string[] = ['chest', 'trapped_chest', 'barrel'];
export const FURNACE_BLOCK = 'furnace';
/** A single chest's slots. */
export const CHEST_SLOTS = 27;

export function checkContainer(command: 'deposit' | 'withdraw' | 'smelt', at: string, block: string | null): void {
  const wanted = command === 'smelt' ? [FURNACE_BLOCK] : CHEST_BLOCKS;
  if (block === null || !wanted.includes(block)) {
    throw new WorldError(
      'precondition_missing',
      `${command}: the block at ${at} is ${block ?? 'not loaded'}, not a ${wanted.join(' or ')}; place one or give its position`,
    );
  }
}

export function checkTransfer(command: 'deposit' | 'withdraw', item: string, count: number, available: number): void {
  if (!Number.isInteger(count) || count < 1)
    throw new WorldError('guard_failed', `cannot ${command} ${count} ${item}: give a whole number of at least 1`);
  if (available < count) {
    throw new WorldError(
      'precondition_missing',
      `cannot ${command} ${count} ${item}: the ${command === 'deposit' ? 'inventory' : 'container'} holds ${available}`,
    );
  }
}

/** What a furnace's input and output slots hold when a smelt opens it. */
export interface FurnaceSlots {
  input: { name: string; count: number } | null;
  output: { name: string; count: number } | null;
}

const EMPTY_FURNACE: FurnaceSlots = { input: null, output: null };

/** What `input` smelts into; refused when the furnace does not take it, `fuel` does not burn, or the count is no whole 1..64. */
export function smeltOutput(input: string, count: number, fuel: string): string {
  if (!Number.isInteger(count) || count < 1 || count > 64)
    throw new WorldError('guard_failed', `cannot smelt ${count} ${input}: give a whole number from 1 to 64`);
  const output = smeltsInto(input);
  if (output === null) throw new WorldError('guard_failed', `cannot smelt ${input}: a furnace does not take it`);
  if (burnTicks(fuel) === null)
    throw new WorldError(
      'guard_failed',
      `cannot burn ${fuel}: it is not a fuel (e.g. ${FUELS.slice(0, 3).join(', ')})`,
    );
  return output;
}

/**
 * What a furnace refuses before anything moves (an input it does not take, a fuel that does not burn, too
 * little of either in the pack), and what a smelt of `count` loads: what the furnace already holds of the
 * output, and of the input cooking, counts toward `count` (its heat was paid when it was loaded), so a smelt
 * a crash or an abort cut short goes on from where the furnace is rather than loading it all again.
 */
export function checkSmelt(
  input: string,
  count: number,
  fuel: string,
  inventory: Readonly<Record<string, number>>,
  furnace: FurnaceSlots = EMPTY_FURNACE,
): { output: string; load: number; fuelCount: number } {
  const output = smeltOutput(input, count, fuel);
  const made = furnace.output?.name === output ? furnace.output.count : 0;
  const cooking = furnace.input?.name === input ? furnace.input.count : 0;
  const load = Math.max(0, count - made - cooking);
  const fuelCount = fuelFor(fuel, load);
  const sameItem = fuel === input ? load : 0;
  if ((inventory[input] ?? 0) < load)
    throw new WorldError(
      'precondition_missing',
      `cannot smelt ${count} ${input}: the inventory holds ${inventory[input] ?? 0}${load < count ? ` of the ${load} the furnace still needs` : ''}`,
    );
  if ((inventory[fuel] ?? 0) - sameItem < fuelCount) {
    throw new WorldError(
      'precondition_missing',
      `cannot smelt ${count} ${input}: it burns ${fuelCount} ${fuel} and the inventory holds ${(inventory[fuel] ?? 0) - sameItem}`,
    );
  }
  return { output, load, fuelCount };
}

/** A player's walk, blocks per second (sprint-less): SimWorld's pace, the fight's walks, a step in on a mob. */
export const PLAYER_WALK_SPEED = 4.317;

/** How far a survival player hits: vanilla's entity reach, from the eyes to the middle of the mob's body. */
export const ATTACK_REACH = 3;
const MID_BODY = 0.9;
/**
 * How long `attack` takes: the swing and a recovery a tick longer than a mob's 10 ticks of hurt immunity, so that
 * swings made one after another never land within it. The charge of the next swing is the melee rules' business
 * (mob-rules/combat.ts): a fighter waits out the held item's attackCooldownMs before swinging again.
 */
export const ATTACK_COOLDOWN_MS = 550;
/** What one hit with an empty hand (or anything that is no weapon or tool) takes off a mob at full charge. */
export const ATTACK_DAMAGE = 1;

/**
 * Vanilla's melee damage of what the hand holds (Java 1.21, https://minecraft.wiki/w/Melee_attack#Damage): swords
 * 4–8, axes 7–10, pickaxes 2–6, shovels 2.5–6.5, by material; anything else ATTACK_DAMAGE. This is a swing at full
 * charge: both worlds scale it by the swing's charge, critical hits and the mob's armour (mob-rules/combat.ts).
 */
const WEAPON_DAMAGE: Readonly<Record<string, readonly [number, number, number, number, number, number]>> = {
  // wooden, golden, stone, iron, diamond, netherite
  sword: [4, 4, 5, 6, 7, 8],
  axe: [7, 7, 9, 9, 9, 10],
  pickaxe: [2, 2, 3, 4, 5, 6],
  shovel: [2.5, 2.5, 3.5, 4.5, 5.5, 6.5],
};
const MATERIALS = ['wooden', 'golden', 'stone', 'iron', 'diamond', 'netherite'];

export function attackDamage(held: string | null): number {
  const [material, tool] = held?.split('_') ?? [];
  const tier = MATERIALS.indexOf(material ?? '');
  const damage = tool === undefined || tier < 0 ? undefined : WEAPON_DAMAGE[tool]?.[tier];
  return damage ?? ATTACK_DAMAGE;
}
/** A mob's health when it spawns (flying-squid gives every mob 20). */
export const MOB_HEALTH = 20;

/** What `attack` refuses: an entity not in sight, one that is no mob or player, one out of reach. */
export function checkAttack(entityId: number, entity: EntityInfo | undefined, feet: Vec3Like): void {
  if (!entity)
    throw new WorldError('precondition_missing', `attack: no entity ${entityId} in sight (dead, gone, or never there)`);
  if (entity.kind === 'item' || entity.kind === 'other')
    throw new WorldError('guard_failed', `attack: entity ${entityId} is a ${entity.name}, not a mob or a player`);
  const distance = attackDistance(feet, entity.position);
  if (distance > ATTACK_REACH)
    throw new WorldError(
      'precondition_missing',
      `attack: the ${entity.name} (entity ${entityId}) is ${distance.toFixed(1)} blocks away, reach is ${ATTACK_REACH}; walk closer first`,
    );
}

/** How far a bot standing at `feet` reaches to hit a mob standing at `mob`: eyes to the middle of its body. */
export function attackDistance(feet: Vec3Like, mob: Vec3Like): number {
  return Math.hypot(mob.x - feet.x, mob.y + MID_BODY - (feet.y + EYE_HEIGHT), mob.z - feet.z);
}

/** The living entities an observation's `entities` query asks for: by id, and by name within `within` of `at`. */
export function entitiesMatching<E extends EntityInfo>(
  entities: readonly E[],
  query: NonNullable<ObservationQuery['entities']>,
  at: Vec3Like,
): E[] {
  return entities.filter((entity) => {
    if (entity.kind === 'item' || entity.kind === 'other') return false;
    if (query.ids?.includes(entity.id)) return true;
    if (!query.names?.includes(entity.name)) return false;
    return (
      query.within === undefined ||
      Math.hypot(entity.position.x - at.x, entity.position.y - at.y, entity.position.z - at.z) <= query.within
    );
  });
}

/** How far a monster keeps a player from sleeping, in blocks. */
export const SLEEP_MONSTER_RANGE = 8;
/** How long everyone must lie in bed before the night is skipped (vanilla's 100 ticks). */
export const SLEEP_MS = 5_000;

const BED_COLOURS = [
  'white',
  'orange',
  'magenta',
  'light_blue',
  'yellow',
  'lime',
  'pink',
  'gray',
  'light_gray',
  'cyan',
  'purple',
  'blue',
  'brown',
  'green',
  'red',
  'black',
];
/** Every bed block of 1.21.4. */
export const BED_BLOCKS: readonly string[] = BED_COLOURS.map((colour) => `${colour}_bed`);

export function isBed(block: string | null): boolean {
  return block !== null && BED_BLOCKS.includes(block);
}

/** What `sleep` refuses: no bed there, a day, a monster nearby. */
export function checkSleep(at: string, block: string | null, timeOfDay: number, monster: EntityInfo | undefined): void {
  if (!isBed(block))
    throw new WorldError(
      'precondition_missing',
      `sleep: the block at ${at} is ${block ?? 'not loaded'}, not a bed; place one or give its position`,
    );
  if (!isNight(timeOfDay))
    throw new WorldError(
      'guard_failed',
      `sleep: it is day (time ${timeOfDay}); one sleeps only at night (${NIGHT_STARTS}–${NIGHT_ENDS})`,
    );
  if (monster)
    throw new WorldError(
      'guard_failed',
      `sleep: a ${monster.name} is within ${SLEEP_MONSTER_RANGE} blocks; there are monsters nearby`,
    );
}

/**
 * A bed takes two cells: its foot where it is placed, its head one further along the bot's line of sight
 * (the larger horizontal axis from the bot to the foot), as a player's placement does. `facing` names
 * that direction as minecraft-data's bed states do.
 */
export function bedHeadFrom(
  feet: Vec3Like,
  foot: Vec3Like,
): { head: Vec3Like; facing: 'north' | 'south' | 'west' | 'east' } {
  const dx = foot.x + 0.5 - feet.x;
  const dz = foot.z + 0.5 - feet.z;
  if (Math.abs(dx) > Math.abs(dz))
    return dx > 0
      ? { head: { ...foot, x: foot.x + 1 }, facing: 'east' }
      : { head: { ...foot, x: foot.x - 1 }, facing: 'west' };
  return dz > 0
    ? { head: { ...foot, z: foot.z + 1 }, facing: 'south' }
    : { head: { ...foot, z: foot.z - 1 }, facing: 'north' };
}
