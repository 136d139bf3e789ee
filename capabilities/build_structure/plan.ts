import type { Vec3Like } from 'verbtree';
import { NAMED_BLUEPRINTS } from './blueprints.js';
import type { BuildStructureArgs } from './schema.js';

export interface PlannedBlock {
  position: Vec3Like;
  block: string;
}

/** The blueprint's blocks at absolute positions, in build order (bottom layer first, so each has support). */
export function plannedBlocks({ origin, blueprint, material }: BuildStructureArgs): PlannedBlock[] {
  const blocks = typeof blueprint === 'string' ? NAMED_BLUEPRINTS[blueprint] : blueprint.blocks;
  return blocks
    .map(({ dx, dy, dz, block }) => ({
      position: { x: origin.x + dx, y: origin.y + dy, z: origin.z + dz },
      block: material ?? block,
    }))
    .sort((a, b) => a.position.y - b.position.y);
}

export function describePosition({ x, y, z }: Vec3Like): string {
  return `(${x}, ${y}, ${z})`;
}
