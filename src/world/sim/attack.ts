import { ATTACK_COOLDOWN_MS, checkAttack } from '../actuator-rules.js';
import type { Operation } from './operation.js';
import type { SimParts } from './sim-parts.js';

/**
 * One swing at a mob with what the hand holds, by the melee rules (mob-rules/combat.ts): the hit lands at once, its
 * damage scaled by the swing's charge and cut by the mob's armour and hurt immunity, and knocks the mob back as far as
 * it has room to stand. The bot never swings while falling or sprinting here, so no hit is critical.
 */
export function attack(parts: SimParts, op: Operation, entityId: number): void {
  const target = parts.entities.get(entityId);
  checkAttack(entityId, target, parts.body.feet);
  parts.mobs.struck(target!, { held: parts.body.held, falling: false, sprinting: false });
  op.after(ATTACK_COOLDOWN_MS, () => op.succeed());
}
