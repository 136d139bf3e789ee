import { WorldError } from '../../contracts/world.js';
import type { Body } from './body.js';
import { foodPoints } from './block-data.js';
import { EAT_MS, MAX_STAT } from './constants.js';
import type { Operation } from './operation.js';

export function consume(body: Body, op: Operation, item: string): void {
  const points = foodPoints(item);
  if (points === undefined) throw new WorldError('guard_failed', `consume: ${item} is not food`);
  if (body.count(item) < 1)
    throw new WorldError('precondition_missing', `consume: no ${item} in the inventory; get some food first`);
  if (body.food >= MAX_STAT) throw new WorldError('guard_failed', 'consume: food is full (20/20), the bot cannot eat');
  op.after(EAT_MS, () => {
    // Eating takes time, and the food may be gone by the end of it.
    if (body.count(item) < 1)
      throw new WorldError('precondition_missing', `consume: the last ${item} left the inventory`);
    body.takeItems(item, 1);
    body.food = Math.min(MAX_STAT, body.food + points);
    op.succeed();
  });
}
