import type { Expectation, Observation } from 'verbtree';
import type { PlaceBlockArgs } from './schema.js';

/**
 * The cell holds the placed block, by name: true for ordinary blocks, not for items that place another
 * block (redstone → redstone_wire), which this capability does not support.
 */
export function placeBlockExpects(_pre: Observation, { position, item }: PlaceBlockArgs): Expectation[] {
  return [{ kind: 'block', at: { x: position.x, y: position.y, z: position.z }, oneOf: [item] }];
}
