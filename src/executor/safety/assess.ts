import { killableBeforeBlast, estimateFight, whyNotFight } from './fight-estimate.js';
import { fleeChoice, keepsPace } from './flight.js';
import {
  type Assessment,
  type Choice,
  type CombatSettings,
  countByKind,
  type EncounterObservation,
  type FightEstimate,
  type HostileSeen,
  isCreeper,
  type WeaponStats,
} from './observation.js';
import { shelterable, shelterChoices } from './shelters.js';
import { breakOffPoint, escapeCosts } from './aftermath.js';

/*
 * The safety layer's judgment of an encounter: a pure function from what the bot sees (the hostiles, itself, the
 * ground) to a ranked list of responses, each with the reason a log or a planner can read. The monitor builds the
 * observation from the world (encounter.ts) and turns the choice into fast-path steps (responses.ts).
 */

/** Full health for a player. */
const FULL_HEALTH = 20;
/**
 * Health a fight may lose beyond its estimate before it breaks off to be judged again (two zombie hits): an estimate
 * is a mean, and a fight going that much worse than judged (a crowd arriving at once, a bot slowed by a busy machine,
 * as a full test run made one on the embedded server) is judged again from where it stands, where the same fight may
 * have become a shelter. Never below the fight's health floor.
 */
const BREAK_OFF_MARGIN = 6;
/** A hostile this far or farther (and out of its bow's reach) lets the bot eat first. */
const EAT_CLEARANCE = 10;
/** This many hostiles or more at once, too many to fight, send the bot up a pillar rather than running. */
const OUTNUMBERED = 3;

/** The assessment: what threatens, what a fight would cost, and the ranked responses with their reasons. */
export function assess(
  seen: EncounterObservation,
  settings: CombatSettings,
  weaponOf: (item: string | null) => WeaponStats,
): Assessment {
  const threats = seen.hostiles.filter((h) => h.reach !== 'none');
  if (threats.length === 0) return { choices: [], fight: null, threats };
  const fight = estimateFight(seen, threats, weaponOf);
  const choices: Choice[] = [];
  const eat = eatFirst(seen, threats);
  if (eat) choices.push(eat);
  // No melee with a creeper about that outlives its own fuse under the bot's blows: it blows up beside the bot.
  const creeper = threats.find((h) => isCreeper(h) && !killableBeforeBlast(h, seen, weaponOf));
  // No melee with a mob a close-in could not reach: a player who cannot get to an archer gets out of its sight.
  const fightable = fight !== null && settings.combat === 'auto' && !creeper && !threats.some(isUnreachable);
  const healthAfter = seen.bot.health - (fight?.expectedDamage ?? 0);
  const shelters = shelterChoices(seen, threats, `${countByKind(threats)}; ${whyNotFight(seen, fight, settings)}`);
  // Cornered by what a flight never shakes off (a spider leaps and climbs), shut in with what got inside the walls
  // (a zombie that walked into the hole), or on ground with no walk out and nothing to shelter with: the fight, even
  // below the floor; no flight, unless the policy avoids fights.
  const trapped = fightable && noWayOut(seen, threats);
  const cornered = trapped || (fightable && threats.every(keepsPace));
  let fought = false;
  if (fight && fightable && healthAfter >= settings.fightHealthFloor) {
    // With no way out after it, a fight never breaks off: nothing better waits after it.
    const breakOffBelow = trapped
      ? 0
      : breakOffPoint(seen, fight, settings.fightHealthFloor, BREAK_OFF_MARGIN, cheapestEscape(seen, threats));
    // A fight that would break off at once (the bot already too hurt to get away after it) is no fight: the way out
    // now, unless cornered.
    fought = seen.bot.health >= breakOffBelow;
    if (fought) choices.push(fightChoice(seen, fight, breakOffBelow));
  }
  // Cornered, the fight whatever it costs, never broken off.
  if (cornered && !fought) choices.push(lastStand(seen, fight, threats));
  const flight = fleeChoice(seen, threats, creeper, fight, settings);
  // Outnumbered or weak: the best shelter first when the pack holds what it takes, a flight when it does not or the
  // shelter fails. A creeper about is kept at a distance first: its blast reaches into any shelter close by.
  const shelterFirst =
    !threats.some(isCreeper) &&
    (!seen.ground.wayOut || threats.length >= OUTNUMBERED || healthAfter < settings.fightHealthFloor);
  // Shut in (dug in, walled in) with no walk out, a flight has nowhere to go: it would fail at once, and the shelter
  // is held instead (in a night's run a bot in its closed hole was sent to flee a skeleton 7 times in 0 ms).
  const flights = shutIn(seen.ground) || cornered ? [] : [flight];
  const [shelter, ...otherShelters] = shelters;
  if (shelter && shelterFirst) choices.push(shelter, ...flights, ...otherShelters);
  else choices.push(...flights, ...shelters);
  return { choices, fight, threats };
}

/**
 * No way out of a melee: only walkers, inside the walls the bot is shut in, or on ground with no walk out where the
 * pack and the ground build no shelter. Read from the kinds, the ground and the pack, never from how many mobs there
 * are, so more mobs never turn a flight into a fight.
 */
export function noWayOut(seen: EncounterObservation, threats: readonly HostileSeen[]): boolean {
  if (!threats.every(isMelee)) return false;
  return shutIn(seen.ground) || (!seen.ground.wayOut && !shelterable(seen));
}

/**
 * The way out that costs least after a fight breaks off, and from what; null with none. Shut in, a flight is none (it
 * is never offered there): a skeleton that got into the bot's hole is fought down to the floor, not broken off from
 * for a flight priced from point-blank that would not run.
 */
function cheapestEscape(seen: EncounterObservation, threats: readonly HostileSeen[]) {
  const ways = escapeCosts(seen, threats);
  const [cheapest] = shutIn(seen.ground) ? ways.filter((way) => way.kind !== 'flee') : ways;
  return cheapest ? { cost: cheapest.cost, from: threats } : null;
}

/** In a shelter that walls the bot in, with no walkable way out of it. */
function shutIn(ground: EncounterObservation['ground']): boolean {
  return (ground.shelter === 'dig_in' || ground.shelter === 'wall_in') && !ground.wayOut;
}

function fightChoice(seen: EncounterObservation, fight: FightEstimate, breakOffBelow: number): Choice {
  const target = fight.targets[0]!;
  const what = `${countByKind(fight.targets)}, ${fight.weapon ?? 'bare hands'} ${fight.damagePerHit} per hit`;
  const reason = `${what}, expected ${fight.expectedDamage} damage taken of ${seen.bot.health}`;
  const { weapon } = fight;
  const judgedOn = fight.targets.map((h) => h.id);
  // An archer out of melee reach is charged: attack_entity walks up to it, out of its bow's line as it closes.
  if (target.reach === 'bow' && target.distance > 3) {
    const closeIn = `close in on the ${target.name}: ${reason}`;
    return { kind: 'close_in', target, weapon, breakOffBelow, judgedOn, reason: closeIn };
  }
  return { kind: 'fight', target, weapon, breakOffBelow, judgedOn, reason };
}

/**
 * The fight against what the bot cannot outrun when it costs more than the floor allows: a flight costs more (the
 * spider bites all the way), and it never breaks off (a flight is no better from where it would stand).
 */
function lastStand(seen: EncounterObservation, fight: FightEstimate, threats: readonly HostileSeen[]): Choice {
  const choice = fightChoice(seen, fight, 0);
  const kinds = countByKind(threats);
  const why = threats.every(keepsPace)
    ? `a flight does not shake off ${kinds} (it leaps and climbs)`
    : shutIn(seen.ground)
      ? `shut in with ${kinds} inside the walls`
      : `no walk away from ${kinds} and nothing to shelter with`;
  return { ...choice, reason: `cornered: ${why}; ${choice.reason}` };
}

const isMelee = (hostile: HostileSeen) => hostile.reach === 'melee';
const isUnreachable = (hostile: HostileSeen) => hostile.unreachable === true;

/** Eat before anything else when hurt, something to eat is in the pack and every threat is still far. */
function eatFirst(seen: EncounterObservation, threats: readonly HostileSeen[]): Choice | null {
  const food = seen.bot.foods[0];
  if (!food || seen.bot.health >= FULL_HEALTH / 2 || seen.bot.food >= FULL_HEALTH) return null;
  const clear = threats.every((h) => h.reach !== 'bow' && h.distance >= EAT_CLEARANCE);
  if (!clear) return null;
  return {
    kind: 'eat',
    food,
    reason: `eat ${food} first: health ${seen.bot.health}, every hostile ${EAT_CLEARANCE}+ blocks off`,
  };
}
