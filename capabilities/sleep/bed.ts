import { BED_BLOCKS, type Observation, type ObservationQuery, type Vec3Like } from 'verbtree';
import type { SleepArgs } from './schema.js';

/** How far the nearest bed is looked for when the step names none. */
export const BED_SEARCH = 32;

/** The bed a step chose (named, or the nearest at dispatch), kept per step as store_items keeps its chest. */
const chosen = new WeakMap<object, Vec3Like | null>();

export function bedQuery(args: SleepArgs): ObservationQuery {
  return { time: true, ...(args.bed ? { blocks: [args.bed] } : { find: { names: BED_BLOCKS, within: BED_SEARCH } }) };
}

export function bedOf(args: SleepArgs, pre?: Observation): Vec3Like | null {
  if (args.bed) return args.bed;
  // Chosen once one is in sight; until then (a bed placed by a sub-goal) each look may find one.
  if (!chosen.get(args) && pre) chosen.set(args, pre.found ?? null);
  return chosen.get(args) ?? null;
}
