import { checkToss } from '../actuator-rules.js';
import { LOWEST_Y } from './constants.js';
import type { SimParts } from './sim-parts.js';

/** A tossed stack lands this far in front of the bot, out of its pickup range, as a real throw does. */
const THROW_DISTANCE = 2;

/** Takes `count` of `item` out of the pack and drops them as one stack in front of the bot. */
export function toss({ body, entities, terrain }: SimParts, item: string, count: number): void {
  checkToss(item, count, body.count(item));
  body.takeItems(item, count);
  const x = body.cellX() + THROW_DISTANCE;
  const z = body.cellZ();
  const y = terrain.restingY(x, body.cellY(), z, LOWEST_Y);
  entities.spawn({ name: 'item', kind: 'item', position: { x: x + 0.5, y, z: z + 0.5 }, item: { name: item, count } });
}
