import { HOSTILE_STATS } from '../../world/mob-rules/index.js';
import type { Choice, EncounterObservation, HostileSeen } from './assess.js';

/*
 * Which shelter the assessment offers: by what the pack holds (blocks, a tool to dig) and by what each threat gets
 * past.
 */

export type ShelterVerb = 'pillar_up' | 'wall_in' | 'dig_in';

/** A pillar this high puts the bot out of a walker's reach (it steps up 1 block). */
const PILLAR_HEIGHT = 3;

/** What each shelter takes from the pack and how a reason names it. */
const SHELTERS: Record<ShelterVerb, { blocks: number; digs: boolean; what: string }> = {
  pillar_up: { blocks: PILLAR_HEIGHT, digs: false, what: `shelter ${PILLAR_HEIGHT} blocks up` },
  // Four sides at feet and head level (fewer where the ground beside is solid already).
  wall_in: { blocks: 8, digs: false, what: 'shelter behind a wall' },
  // The cover; the blocks it digs come into the pack too.
  dig_in: { blocks: 1, digs: true, what: 'shelter dug in under a closed top' },
};

/** A tool that digs the ground quickly: a shovel for dirt, a pickaxe for stone. */
const DIGGING_TOOL = /_(shovel|pickaxe)$/;

/**
 * The shelters the pack provides for, best first, leaving out those a threat gets past: a skeleton shoots up a
 * pillar and over a wall, a spider climbs both, a creeper blows through a wall. Against walkers alone: the pillar
 * first (fewest blocks), then the wall, then the hole. `context` is what the reason goes on with (the threats, why
 * not fight).
 */
export function shelterChoices(seen: EncounterObservation, threats: readonly HostileSeen[], context: string): Choice[] {
  const canDig = [seen.bot.held, ...seen.bot.pack].some((item) => item !== null && DIGGING_TOOL.test(item));
  const passedOver = whatGetsPast(threats);
  const not = passedOver.size > 0 ? `; passed over: ${[...new Set(passedOver.values())].join(', ')}` : '';
  const choices: Choice[] = [];
  for (const verb of ['pillar_up', 'wall_in', 'dig_in'] as const) {
    const shelter = SHELTERS[verb];
    if (passedOver.has(verb) || seen.bot.blocks < shelter.blocks || (shelter.digs && !canDig)) continue;
    const height = verb === 'pillar_up' ? { height: PILLAR_HEIGHT } : {};
    choices.push({ kind: 'shelter', verb, ...height, reason: `${shelter.what}: ${context}${not}` });
  }
  return choices;
}

/** The shelters some threat gets past, each with how. */
function whatGetsPast(threats: readonly HostileSeen[]): Map<ShelterVerb, string> {
  const past = new Map<ShelterVerb, string>();
  for (const { name, reach } of threats) {
    const stats = HOSTILE_STATS[name];
    if (reach === 'bow' || stats?.bow) {
      past.set('pillar_up', `a ${name} shoots up a pillar`);
      past.set('wall_in', `a ${name} shoots over a wall`);
    } else if (stats?.climbs) {
      past.set('pillar_up', `a ${name} climbs a pillar`);
      past.set('wall_in', `a ${name} climbs a wall`);
    } else if (reach === 'explosion' || stats?.fuse) past.set('wall_in', `a ${name} blows through a wall`);
  }
  return past;
}
