import { blockKey, type Vec3Like } from '../../contracts/world.js';
import { ACTIVATE_MS, activationOf, checkActivateItem, doorPartner } from '../activation.js';
import type { Operation } from './operation.js';
import type { SimParts } from './sim-parts.js';
import { requireReach } from './requirements.js';

/** Uses the block within reach, holding `item` when given: the rules of activation.ts, applied when the click lands. */
export function activate({ grid, body }: SimParts, op: Operation, block: Vec3Like, item: string | undefined): void {
  const cell = { x: Math.floor(block.x), y: Math.floor(block.y), z: Math.floor(block.z) };
  checkActivateItem(item, item === undefined ? 1 : body.count(item));
  const before = grid.state(cell.x, cell.y, cell.z);
  const after = activationOf(blockKey(cell), before, item ?? body.held, grid.get(cell.x, cell.y + 1, cell.z));
  requireReach(body, 'activate', cell);
  if (item !== undefined) body.held = item;
  op.after(ACTIVATE_MS, () => {
    grid.setState(cell.x, cell.y, cell.z, after);
    const partner = doorPartner(cell, before.name, (y) => grid.get(cell.x, y, cell.z));
    if (partner) grid.setState(partner.x, partner.y, partner.z, { ...after });
    op.succeed();
  });
}
