import type { DroppedItem, Expectation, Observation } from 'verbtree';
import type { CollectDropsArgs } from './schema.js';

/**
 * Every drop that lay within the radius at dispatch (of `item`, when given) is in the pack: for each kind,
 * the pack holds at least what it held plus all of them, and none of them is left on the ground there.
 */
export function collectDropsExpects(pre: Observation, { item, radius }: CollectDropsArgs): Expectation[] {
  const tenth = (n: number) => Math.round(n * 10) / 10;
  const around = { x: tenth(pre.position.x), y: tenth(pre.position.y), z: tenth(pre.position.z) };
  const lying = (pre.drops ?? []).filter((d: DroppedItem) => item === undefined || d.name === item);
  const counts = new Map<string, number>();
  for (const drop of lying) counts.set(drop.name, (counts.get(drop.name) ?? 0) + drop.count);
  const expectations: Expectation[] = [...counts].map(([name, count]) => ({
    kind: 'inventory',
    item: name,
    atLeast: (pre.inventory[name] ?? 0) + count,
  }));
  expectations.push({ kind: 'no_drops', around, radius, ...(item ? { item } : {}) });
  return expectations;
}
