import { type Expectation, type Observation, targetOf } from 'verbtree';
import type { AttackEntityArgs } from './schema.js';

/** Done means the mob is dead: gone from the world as its truth holds it. */
export function attackEntityExpects(pre: Observation, args: AttackEntityArgs): Expectation[] {
  const target = targetOf(args, pre);
  return target ? [{ kind: 'entity_gone', id: target.id, name: target.name }] : [];
}
