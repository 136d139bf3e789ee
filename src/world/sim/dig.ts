import { WorldError } from '../../contracts/world.js';
import { AIR, digTimeMs, dropsOf, isPassable, isVanillaDiggable } from './block-data.js';
import { cellText } from './cells.js';
import type { Operation } from './operation.js';
import { requireReach } from './requirements.js';
import type { SimParts } from './sim-parts.js';
import type { Cell } from './terrain.js';

export function canBreak(name: string, unbreakable: ReadonlySet<string>): boolean {
  return isVanillaDiggable(name) && !unbreakable.has(name);
}

/**
 * Breaks the block after its dig time with the tool held at the start; its drops fall and nearby ones are picked up.
 */
export function dig(parts: SimParts, op: Operation, cell: Cell): void {
  const { grid, body, entities, terrain, locomotion } = parts;
  const name = grid.get(cell.x, cell.y, cell.z);
  if (isPassable(name) && !isVanillaDiggable(name)) {
    throw new WorldError('guard_failed', `dig: nothing to dig at ${cellText(cell)} (${name})`);
  }
  if (!canBreak(name, parts.unbreakable))
    throw new WorldError('guard_failed', `dig: ${name} at ${cellText(cell)} cannot be broken in this world`);
  requireReach(body, 'dig', cell);
  const held = body.held;
  op.after(digTimeMs(name, held), () => {
    grid.set(cell.x, cell.y, cell.z, AIR);
    for (const drop of dropsOf(name, held)) entities.dropItem(terrain, cell, drop);
    locomotion.fall();
    entities.pickUpNear(body);
    op.succeed();
  });
}
