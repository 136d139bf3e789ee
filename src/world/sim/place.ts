import { WorldError } from '../../contracts/world.js';
import { bedHeadFrom, isBed } from '../actuator-rules.js';
import { isPassable, isPlaceableItem } from './block-data.js';
import { cellText } from './cells.js';
import { PLACE_MS } from './constants.js';
import type { Operation } from './operation.js';
import { hasSolidNeighbour, requireReach } from './requirements.js';
import type { SimParts } from './sim-parts.js';
import type { Cell } from './terrain.js';

export function place(parts: SimParts, op: Operation, cell: Cell, item: string): void {
  const { grid, body, terrain } = parts;
  if (!isPlaceableItem(item)) throw new WorldError('guard_failed', `place: "${item}" is not a placeable block`);
  if (body.count(item) < 1)
    throw new WorldError('precondition_missing', `place: no ${item} in the inventory; get one first`);
  const existing = grid.get(cell.x, cell.y, cell.z);
  if (!isPassable(existing))
    throw new WorldError(
      'guard_failed',
      `place: ${cellText(cell)} is taken by ${existing}; dig it first or pick an air cell`,
    );
  if (body.occupies(cell))
    throw new WorldError('guard_failed', `place: ${cellText(cell)} is the bot's own cell; step aside or jump first`);
  if (!hasSolidNeighbour(terrain, cell))
    throw new WorldError('guard_failed', `place: ${cellText(cell)} has no solid face to place against`);
  requireReach(body, 'place', cell);
  // A bed's head goes one cell further from the bot; with no room there it is not placed, as on a server.
  const head = isBed(item) ? bedHeadFrom(body.feet, cell).head : null;
  if (head && !isPassable(grid.get(head.x, head.y, head.z))) {
    throw new WorldError(
      'guard_failed',
      `place: a bed at ${cellText(cell)} needs ${cellText(head)} free for its head, and ${grid.get(head.x, head.y, head.z)} stands there`,
    );
  }
  op.after(PLACE_MS, () => {
    // The bot may have moved or lost the item while the placement was under way.
    if (body.count(item) < 1)
      throw new WorldError('precondition_missing', `place: the last ${item} left the inventory`);
    if (body.occupies(cell)) throw new WorldError('guard_failed', `place: the bot moved into ${cellText(cell)}`);
    body.takeItems(item, 1);
    grid.set(cell.x, cell.y, cell.z, item);
    if (head) grid.set(head.x, head.y, head.z, item);
    op.succeed();
  });
}
