import { WorldError } from '../../contracts/world.js';
import { eat } from '../health-rules.js';
import type { Body } from './body.js';
import { foodOf } from './block-data.js';
import { EAT_MS, MAX_STAT } from './constants.js';
import type { Operation } from './operation.js';

/** `fed` runs once the meal is eaten (the food it raised may let the body heal). */
export function consume(body: Body, op: Operation, item: string, fed: () => void): void {
  const food = foodOf(item);
  if (food === undefined) throw new WorldError('guard_failed', `consume: ${item} is not food`);
  if (body.count(item) < 1)
    throw new WorldError('precondition_missing', `consume: no ${item} in the inventory; get some food first`);
  if (body.food >= MAX_STAT) throw new WorldError('guard_failed', 'consume: food is full (20/20), the bot cannot eat');
  op.after(EAT_MS, () => {
    // Eating takes time, and the food may be gone by the end of it.
    if (body.count(item) < 1)
      throw new WorldError('precondition_missing', `consume: the last ${item} left the inventory`);
    body.takeItems(item, 1);
    ({ food: body.food, saturation: body.saturation } = eat(body, food.foodPoints, food.saturation));
    fed();
    op.succeed();
  });
}
