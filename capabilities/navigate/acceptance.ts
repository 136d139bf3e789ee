import type { Expectation, Observation } from 'verbtree';
import type { NavigateArgs } from './schema.js';

/** The bot stands where the target, as asked, is satisfied (measured as the worlds measure goals). */
export function navigateExpects(_pre: Observation, { target }: NavigateArgs): Expectation[] {
  return [{ kind: 'position', goal: { ...target } }];
}
