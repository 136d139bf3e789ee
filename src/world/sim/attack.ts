import type { EntityInfo } from '../../contracts/world.js';
import { ATTACK_COOLDOWN_MS, attackDamage, checkAttack, knockedBackTo } from '../actuator-rules.js';
import { canStand } from '../mob-rules/index.js';
import type { Operation } from './operation.js';
import type { SimParts } from './sim-parts.js';

/**
 * One swing at a mob with what the hand holds: the hit lands at once and knocks it back where there is room; the swing's
 * cooldown is the rest of the command.
 */
export function attack(parts: SimParts, op: Operation, entityId: number): void {
  const target = parts.entities.get(entityId);
  checkAttack(entityId, target, parts.body.feet);
  parts.entities.damage(entityId, attackDamage(parts.body.held));
  knockBack(parts, target!);
  parts.mobs.hitBy(entityId);
  op.after(ATTACK_COOLDOWN_MS, () => op.succeed());
}

/** A hit's push, where the mob has room to stand (the mob rules' canStand), as on the embedded server. */
function knockBack({ body, grid, entities }: SimParts, target: EntityInfo): void {
  const to = knockedBackTo(body.feet, target.position);
  const terrain = { block: (x: number, y: number, z: number) => grid.get(x, y, z) };
  if (canStand(terrain, Math.floor(to.x), Math.floor(to.y), Math.floor(to.z))) entities.move(target.id, to);
}
