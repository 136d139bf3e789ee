import { blocksFor, type Expectation, type Observation } from 'verbtree';
import type { ExploreArgs } from './schema.js';

/** A block of the kind lies in the open within `sight` of where the bot ends, as the world's truth holds it. */
export function exploreExpects(_pre: Observation, { block, sight }: ExploreArgs): Expectation[] {
  return [{ kind: 'in_sight', names: [...(blocksFor(block) ?? [])], within: sight }];
}
