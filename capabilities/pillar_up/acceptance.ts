import type { AcceptanceResult, Observation } from '../../src/index.js';
import type { PillarUpArgs } from './schema.js';

/** Half a block of slack: the bot may still be settling onto the last block when observed. */
const SLACK = 0.5;

export function pillarUpAcceptance(pre: Observation, post: Observation, { height }: PillarUpArgs): AcceptanceResult {
  const rose = post.position.y - pre.position.y;
  if (rose >= height - SLACK) return { ok: true };
  return { ok: false, unmet: [`raised: rose ${rose.toFixed(1)} of ${height} blocks`] };
}
