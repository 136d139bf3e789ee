import type { Expectation, Observation } from 'verbtree';
import type { EquipArgs } from './schema.js';

/**
 * The main hand is observed directly. Off-hand and armor slots are not part of an Observation, so they
 * are judged by one of the item having left the main inventory: weaker evidence, since dropping it looks the same.
 * Known limit: a world whose inventory counts the off-hand slot (the embedded server's truth reads slots
 * 9..45) never shows that, so off-hand equips stay unverified until Observation reports equipment.
 */
export function equipExpects(pre: Observation, { item, destination }: EquipArgs): Expectation[] {
  if (destination === 'hand') return [{ kind: 'held', item }];
  return [{ kind: 'inventory', item, atMost: Math.max(0, (pre.inventory[item] ?? 0) - 1) }];
}
