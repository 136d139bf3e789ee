import type { Expectation, Observation } from 'verbtree';
import type { PillarUpArgs } from './schema.js';

/** Half a block of slack: the bot may still be settling onto the last block when observed. */
const SLACK = 0.5;

/** The bot's feet are `height` blocks above where they were at dispatch. */
export function pillarUpExpects(pre: Observation, { height }: PillarUpArgs): Expectation[] {
  return [{ kind: 'height', atLeast: pre.position.y + height - SLACK }];
}
