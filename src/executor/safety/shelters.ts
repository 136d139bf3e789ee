import { isNight, NIGHT_ENDS } from '../../contracts/world.js';
import { HOSTILE_STATS, MELEE_REACH, mobSize, PLAYER_WIDTH, TICK_MS } from '../../world/mob-rules/index.js';
import type { Choice, EncounterObservation, HostileSeen } from './observation.js';

/*
 * Which shelter the assessment offers: by what the pack holds (blocks, a tool to dig) and by what each threat gets
 * past.
 */

export type ShelterVerb = 'pillar_up' | 'wall_in' | 'dig_in';

/** A pillar this high puts the bot out of a walker's reach (it steps up 1 block). */
export const PILLAR_HEIGHT = 3;

/** What each shelter takes from the pack and how a reason names it. */
const SHELTERS: Record<ShelterVerb, { blocks: number; digs: boolean; what: string }> = {
  pillar_up: { blocks: PILLAR_HEIGHT, digs: false, what: `shelter ${PILLAR_HEIGHT} blocks up` },
  // Four sides at feet and head level (fewer where the ground beside is solid already).
  wall_in: { blocks: 8, digs: false, what: 'shelter behind a wall' },
  // The cover: from the pack, or the first block it digs (canDigIn).
  dig_in: { blocks: 1, digs: true, what: 'shelter dug in under a closed top' },
};

/**
 * The longest a dig-in may take, as dig_in's guard has it (capabilities/dig_in/guard.ts, which the executor does not
 * import): arrows and blows land while the bot digs.
 */
export const DIG_IN_MAX_MS = 4_500;

/** A kind whose pace the mob rules do not give walks as a zombie does. */
const ZOMBIE_SPEED = HOSTILE_STATS.zombie!.speed;

/** A tool that digs the ground quickly: a shovel for dirt, a pickaxe for stone. */
const DIGGING_TOOL = /_(shovel|pickaxe)$/;

/**
 * The shelters the pack provides for, best first, leaving out those a threat gets past: a skeleton shoots up a
 * pillar and over a wall, a spider climbs both, a creeper blows through a wall. Against walkers alone: the pillar
 * first (fewest blocks), then the wall, then the hole. `context` is what the reason goes on with (the threats, why
 * not fight).
 */
export function shelterChoices(seen: EncounterObservation, threats: readonly HostileSeen[], context: string): Choice[] {
  const passedOver = whatGetsPast(threats);
  const not = passedOver.how.length > 0 ? `; passed over: ${passedOver.how.join(', ')}` : '';
  return shelterVerbs(seen, threats).map((verb) => {
    const height = verb === 'pillar_up' ? { height: PILLAR_HEIGHT } : {};
    return { kind: 'shelter', verb, ...height, reason: `${SHELTERS[verb].what}: ${context}${not}` };
  });
}

/** The verbs of `shelterChoices`, best first: what the pack builds here that no threat gets past, in time. */
export function shelterVerbs(seen: EncounterObservation, threats: readonly HostileSeen[]): ShelterVerb[] {
  const passedOver = whatGetsPast(threats).verbs;
  return (['pillar_up', 'wall_in', 'dig_in'] as const).filter((verb) => {
    const shelter = SHELTERS[verb];
    if (passedOver.has(verb) || !fitsHere(verb, seen.ground)) return false;
    if (verb === 'pillar_up' && pillarPassedBy(seen.hostiles)) return false;
    return shelter.digs ? canDigIn(seen) : seen.bot.blocks >= shelter.blocks;
  });
}

/**
 * Whether the pack and the ground here could build any shelter at all, whatever the mobs about: blocks for a pillar
 * with room to rise or for a wall, or ground to dig in under a cover. Without one, and with no walk out, a bot losing
 * a fight has nothing better to break off to (assess.ts).
 */
export function shelterable(seen: EncounterObservation): boolean {
  const { bot, ground } = seen;
  const verbs = (['pillar_up', 'wall_in'] as const).filter((verb) => fitsHere(verb, ground));
  return (
    verbs.some((verb) => bot.blocks >= SHELTERS[verb].blocks) || (fitsHere('dig_in', ground) && groundDigsIn(seen))
  );
}

/**
 * Whether the bot can dig in here: the ground measured, within DIG_IN_MAX_MS with the best tool at hand (dirt by hand
 * is 2.4 s), closed before any hostile reaches the hole, and a block for the cover in the pack or in what it digs
 * (grass and dirt drop dirt); the ground not measured, a shovel or a pickaxe and a block in the pack.
 */
function canDigIn(seen: EncounterObservation): boolean {
  const { digIn } = seen.ground;
  if (!groundDigsIn(seen)) return false;
  return !digIn || (digIn.ms + HOLE_CLOSING_MS) / 1000 <= secondsUntilHoleReached(seen.hostiles);
}

/** The pack and the ground allow a hole here, whatever the mobs about (canDigIn adds their arrival). */
function groundDigsIn({ bot, ground }: EncounterObservation): boolean {
  const cover = bot.blocks >= SHELTERS.dig_in.blocks;
  if (ground.digIn === undefined)
    return cover && [bot.held, ...bot.pack].some((item) => item !== null && DIGGING_TOOL.test(item));
  const { digIn } = ground;
  return digIn !== null && digIn.ms <= DIG_IN_MAX_MS && (cover || digIn.yieldsCover);
}

/**
 * What a hole takes beyond its digs until its top is closed: the bot's three drops (a block in about 6 ticks each) and
 * the cover's equip and placement. Measured on the embedded server: dig_in took 3.1 to 3.6 s by hand for 2.4 s of
 * digging (`npm run bench -- night --rows skeleton-8`, 2026-12-06).
 */
export const HOLE_CLOSING_MS = 1_200;

/**
 * Seconds until the nearest hostile that comes for the bot is at the hole (the gap to its melee reach at its walk), or
 * a creeper blows up (the gap to its ignition range, then its fuse). A hole open two cells deep is a walk's end for a
 * mob (the bot's body is no obstacle to it, as in vanilla): on the embedded server a skeleton 5 blocks off walked into
 * a hole dug by hand before its top was closed and shot the bot dead in it, and eight zombies 5 blocks off were on a
 * bot still digging. An archer counts as a walker: it walks up once the hole hides the bot from its bow. A mob that
 * does not come for the bot (reach 'none': a spider by day, a walker still far) is left out, except an archer.
 */
function secondsUntilHoleReached(hostiles: readonly HostileSeen[]): number {
  let soonest = Infinity;
  for (const { name, reach, distance } of hostiles) {
    const stats = HOSTILE_STATS[name];
    if (reach === 'none' && !stats?.bow) continue;
    const speed = stats?.speed ?? ZOMBIE_SPEED;
    const fuse = stats?.fuse;
    const arrives = fuse
      ? Math.max(0, distance - fuse.igniteWithin) / speed + (fuse.ticks * TICK_MS) / 1000
      : walkToMeleeS(name, distance);
    soonest = Math.min(soonest, arrives);
  }
  return soonest;
}

/** Seconds a walker `distance` blocks off takes to have the bot in its melee reach, at its kind's walk. */
export function walkToMeleeS(name: string, distance: number): number {
  const speed = HOSTILE_STATS[name]?.speed ?? ZOMBIE_SPEED;
  return Math.max(0, distance - (mobSize(name).width / 2 + MELEE_REACH + PLAYER_WIDTH / 2)) / speed;
}

/**
 * Whether building `verb` here adds a shelter: not the one the bot stands in (up its pillar, behind its wall, in its
 * hole), nor a wall inside the hole's walls, nor a pillar without the room over the head to rise its height.
 */
export function fitsHere(verb: ShelterVerb, ground: EncounterObservation['ground']): boolean {
  if (ground.shelter === verb || (ground.shelter === 'dig_in' && verb === 'wall_in')) return false;
  return verb !== 'pillar_up' || ground.headroom === undefined || ground.headroom >= PILLAR_HEIGHT;
}

/**
 * The hostile about that gets past a pillar the bot has not yet climbed, or null: an archer within its bow's range,
 * in sight now or not (the pillar lifts the bot over what hides it: in a night's tech-tree run a skeleton 8 blocks off
 * shot a bot dead on the pillar its low health sent it up), or a climber within reach of the assessment.
 */
export function pillarPassedBy(
  hostiles: readonly { name: string; distance: number; reach?: HostileSeen['reach'] }[],
): string | null {
  const past = hostiles.find(({ name, distance, reach }) => {
    const stats = HOSTILE_STATS[name];
    return stats?.bow ? distance <= stats.bow.range : stats?.climbs === true && reach !== 'none';
  });
  return past?.name ?? null;
}

/** The shelters some threat gets past, and how, once per kind. */
function whatGetsPast(threats: readonly HostileSeen[]): { verbs: Set<ShelterVerb>; how: string[] } {
  const verbs = new Set<ShelterVerb>();
  const how = new Map<string, string>();
  for (const { name, reach } of threats) {
    const past = getsPast(name, reach);
    if (!past) continue;
    how.set(name, `a ${name} ${past.how}`);
    for (const verb of past.verbs) verbs.add(verb);
  }
  return { verbs, how: [...how.values()] };
}

function getsPast(name: string, reach: HostileSeen['reach']): { how: string; verbs: ShelterVerb[] } | null {
  const stats = HOSTILE_STATS[name];
  if (reach === 'bow' || stats?.bow)
    return { how: 'shoots up a pillar and over a wall', verbs: ['pillar_up', 'wall_in'] };
  if (stats?.climbs) return { how: 'climbs a pillar and a wall', verbs: ['pillar_up', 'wall_in'] };
  if (reach === 'explosion' || stats?.fuse) return { how: 'blows through a wall', verbs: ['wall_in'] };
  return null;
}

/** How long a sheltered bot waits by day for what keeps it in to leave: a spider or a creeper may stay for good. */
export const SHELTER_WAIT_MS = 20_000;
/**
 * After dawn, the time the sun takes to kill a zombie or a skeleton in the open: it catches fire within a second or so
 * (1 chance in 25 a tick) and burns 1 a second (20 health), caught again as each fire goes out.
 */
export const SUNRISE_BURN_MS = 40_000;

/**
 * How long a sheltered bot waits for what keeps it in (`timeOfDay` the world's, absent when it does not say): by day
 * SHELTER_WAIT_MS; at night, for a bot that would not beat even the nearest of them in the open (`beatsOne` false: bare
 * hands against a zombie, a wooden sword at 8 health), until dawn and the sun's burn after it, as a player's first
 * night in a hole (the night's mobs do not leave a bot they lost sight of: they stand about until the sun burns them);
 * a night lasts 546 s, so the wait is bounded by that and the burn. A bot that would beat one of them waits
 * SHELTER_WAIT_MS at night too, and a crowd that stays ends its step (up a pillar with an iron sword, five zombies below
 * would otherwise hold it there all night; the shipped nightfall swarm test runs on a real server within 240 s).
 */
export function shelterWaitMs(
  timeOfDay: number | undefined,
  beatsOne: boolean,
): { ms: number; night: boolean; forDay: boolean } {
  const night = timeOfDay !== undefined && isNight(timeOfDay);
  if (!night || beatsOne) return { ms: SHELTER_WAIT_MS, night, forDay: false };
  const ms = Math.max(SHELTER_WAIT_MS, (NIGHT_ENDS + 1 - timeOfDay) * TICK_MS + SUNRISE_BURN_MS);
  return { ms, night, forDay: true };
}
