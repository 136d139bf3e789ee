import type { SafetyOverride } from '../contracts/plan-step.js';
import { isNight } from '../contracts/world.js';
import {
  ASSESS_RADIUS,
  assess,
  countByKind,
  observeEncounter,
  round,
  type SafetySignal,
  weaponStats,
} from './safety/index.js';
import { HOSTILE_STATS } from '../world/mob-rules/index.js';
import { type EncounterObservation, type HostileSeen, isArcher, isCreeper, type Reach } from './safety/observation.js';
import { responseFor } from './safety/responses.js';
import type { RunScope } from './scope.js';

/**
 * After a flight at night from what the bot cannot beat, the walkers still after it (within the encounter, coming on)
 * are met with a shelter it can build before they are at it, rather than a walk back into them: a bare-handed bot fled
 * a lone zombie five times over in a night's tech-tree run (SimWorld world 8), each flight ended 10 blocks clear and
 * each resumed step walked back to it, until the step ended `preempted`. A player digs in and waits for day. Null by
 * day (the sun burns the chasers), when the encounter would be a fight, or when no shelter can be built in time.
 */
export async function stillHunted(scope: RunScope, options: { combat?: SafetyOverride }): Promise<SafetySignal | null> {
  const { timeOfDay } = await scope.world.observe({ time: true });
  if (timeOfDay === undefined || !isNight(timeOfDay)) return null;
  const seen = steppingOut(
    observeEncounter(scope.world, scope.policy.safety.hostileRadius, { health: new Map(), timeOfDay }),
  );
  const assessment = assess(seen, scope.safety.settings(options.combat), weaponStats);
  const [first] = assessment.choices;
  if (first?.kind !== 'flee' && first?.kind !== 'shelter') return null;
  const held = scope.world.heldItem();
  const nearest = Math.min(...assessment.threats.map((h) => h.distance));
  const detail = `fled, and ${countByKind(assessment.threats)} still ${assessment.threats.length > 1 ? 'come' : 'comes'} on at night (${round(nearest)} blocks off)`;
  const responses = assessment.choices
    .filter((choice) => choice.kind === 'shelter')
    .map((choice) => ({ ...responseFor(choice, held), reason: `${detail}: ${choice.reason}` }));
  return responses.length > 0 ? { signal: 'hostile', detail, responses, assessment } : null;
}

/**
 * The encounter a resumed step walks out into: an archer within its bow's range but out of sight where the flight
 * ended is a step from seeing the bot. In a night's tech-tree run (server world 7, c879818) a bot at 7 health fled a
 * skeleton and then a zombie; where the second flight ended the skeleton, 15 blocks off or less, had no line of sight,
 * so nothing still hunted the bot; the resumed step walked back into its sight and took an arrow to 3, and the next
 * flight died to it. A walker counts within its follow range, in sight or not, already.
 */
function steppingOut(seen: EncounterObservation): EncounterObservation {
  const hostiles = seen.hostiles.map((h) => (hiddenArcher(h) ? { ...h, reach: reachInTheOpen(h) } : h));
  return { ...seen, hostiles };
}

function hiddenArcher(hostile: HostileSeen): boolean {
  const range = HOSTILE_STATS[hostile.name]?.bow?.range;
  return hostile.reach === 'none' && range !== undefined && hostile.distance <= range;
}

/**
 * What keeps a sheltered bot in: the monitor's walkers below and archers in bow range, and at night also every other
 * hostile within the encounter's radius, which finds the bot again once it is out in its sight: in SimWorld's world 8
 * the bot came out of the hole it dug from a zombie 12.9 blocks off (beyond the walkers below), and that zombie was on
 * it again 8 s later.
 */
export function keepers(scope: RunScope, night: boolean): { id: number; name: string }[] {
  const kept = scope.safety.keepingInShelter();
  if (!night) return kept;
  const at = scope.world.position();
  const ids = new Set(kept.map((e) => e.id));
  const near = scope.world
    .entities()
    .filter(
      (e) =>
        e.kind === 'hostile' && !ids.has(e.id) && Math.hypot(e.position.x - at.x, e.position.z - at.z) <= ASSESS_RADIUS,
    );
  return [...kept, ...near];
}

/**
 * Whether the bot, out of its shelter, would fight what is about rather than flee or shelter again: the encounter read
 * from where it stands with every hostile within the encounter's radius reaching it (a walker walks up, an archer
 * shoots, a creeper blows up) and no shelter, judged as assess judges it; with `nearestOnly`, the nearest of them
 * alone. A player with a sword comes out of the hole to kill a lone skeleton rather than wait the night out; a
 * bare-handed one waits. Each kind's health at spawn.
 */
export function beatableOutside(scope: RunScope, options: { combat?: SafetyOverride }, nearestOnly = false): boolean {
  const seen = observeEncounter(scope.world, scope.policy.safety.hostileRadius);
  const near = seen.hostiles.filter((h) => h.distance <= ASSESS_RADIUS);
  if (near.length === 0) return false;
  const inTheOpen = (h: HostileSeen) => ({ ...h, reach: reachInTheOpen(h) });
  const nearest = near.reduce((a, b) => (b.distance < a.distance ? b : a));
  const hostiles = nearestOnly
    ? [inTheOpen(nearest)]
    : seen.hostiles.map((h) => (h.distance <= ASSESS_RADIUS ? inTheOpen(h) : h));
  const out = { ...seen, hostiles, ground: { ...seen.ground, shelter: null, wayOut: true, digIn: null } };
  const settings = scope.safety.settings(options.combat);
  const { choices, fight } = assess(out, settings, weaponStats);
  const first = choices[0];
  // A last stand out there (a spider it cannot outrun, fought below the floor) is no reason to leave a shelter that
  // holds: in server tech-tree world 7 a bot dug in at 5 health came out to a spider and died.
  const aboveFloor = fight !== null && out.bot.health - fight.expectedDamage >= settings.fightHealthFloor;
  return (first?.kind === 'fight' || first?.kind === 'close_in') && aboveFloor;
}

function reachInTheOpen(hostile: HostileSeen): Reach {
  if (isArcher(hostile)) return 'bow';
  return isCreeper(hostile) ? 'explosion' : 'melee';
}
