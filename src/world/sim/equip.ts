import { type BodyPart, WorldError } from '../../contracts/world.js';
import type { Body } from './body.js';
import { EQUIP_MS } from './constants.js';
import type { Operation } from './operation.js';

export function equip(body: Body, op: Operation, item: string, destination: BodyPart): void {
  if (body.count(item) < 1)
    throw new WorldError('precondition_missing', `equip: no ${item} in the inventory; get one first`);
  op.after(EQUIP_MS, () => {
    if (destination === 'hand') body.held = item;
    else {
      // As in the game, worn armour and the off-hand item leave the main inventory; what they replace returns to it.
      const previous = body.worn.get(destination);
      body.takeItems(item, 1);
      if (previous) body.giveItem(previous, 1);
      body.worn.set(destination, item);
    }
    op.succeed();
  });
}
