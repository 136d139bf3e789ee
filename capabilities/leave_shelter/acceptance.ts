import type { Expectation, Observation } from 'verbtree';
import type { LeaveShelterArgs } from './schema.js';

/** The bot stands on the ground outside, in the cell asked. */
export function leaveShelterExpects(_pre: Observation, { to }: LeaveShelterArgs): Expectation[] {
  return [{ kind: 'position', goal: { kind: 'block', ...to } }];
}
