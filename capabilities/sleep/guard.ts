import { blockKey, type GuardContext, type GuardResult, isNight, SLEEP_MONSTER_RANGE } from 'verbtree';
import { BED_SEARCH, bedOf } from './bed.js';
import type { SleepArgs } from './schema.js';

/** A bed where the step means, at night, with no monster near the bot. */
export function sleepGuard({ world, observation }: GuardContext, args: SleepArgs): GuardResult {
  const bed = bedOf(args, observation);
  if (!bed)
    return {
      ok: false,
      reason: `no bed in the open within ${BED_SEARCH} blocks: carry one (it is placed beside the bot), place one, or name one with "bed"`,
      missing: { predicate: 'near_block', detail: { block: 'bed' } },
    };
  if (args.bed && !(observation.blocks[blockKey(args.bed)] ?? '').endsWith('_bed'))
    return {
      ok: false,
      reason: `the block at ${blockKey(args.bed)} is ${observation.blocks[blockKey(args.bed)] ?? 'not loaded'}, not a bed`,
    };
  const time = observation.timeOfDay;
  if (time !== undefined && !isNight(time))
    return { ok: false, reason: `it is day (time ${time}): one sleeps only at night` };
  const at = observation.position;
  const monster = world
    .entities()
    .find(
      (e) =>
        e.kind === 'hostile' &&
        Math.hypot(e.position.x - at.x, e.position.y - at.y, e.position.z - at.z) <= SLEEP_MONSTER_RANGE,
    );
  if (monster)
    return {
      ok: false,
      reason: `a ${monster.name} is within ${SLEEP_MONSTER_RANGE} blocks: there are monsters nearby`,
    };
  return { ok: true };
}
