import type { AcceptanceResult, Observation } from '../../src/index.js';
import type { EquipArgs } from './schema.js';

/**
 * The main hand is observed directly. Off-hand and armor slots are not part of an Observation, so they
 * are inferred from the item leaving the main inventory: weaker evidence, since dropping it looks the same.
 * Known limit: a world whose inventory counts the off-hand slot (the embedded server's truth reads slots
 * 9..45) never shows that drop, so off-hand equips stay unverified until Observation reports equipment.
 */
export function equipAcceptance(pre: Observation, post: Observation, { item, destination }: EquipArgs): AcceptanceResult {
  if (destination === 'hand') {
    if (post.heldItem === item) return { ok: true };
    return { ok: false, unmet: [`equipped: the hand holds ${post.heldItem ?? 'nothing'}, expected ${item}`] };
  }
  const before = pre.inventory[item] ?? 0;
  const after = post.inventory[item] ?? 0;
  if (before >= 1 && after <= before - 1) return { ok: true };
  return { ok: false, unmet: [`equipped: ${item} did not leave the inventory for the ${destination} (${before} before, ${after} after)`] };
}
