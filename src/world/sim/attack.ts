import type { EntityInfo } from '../../contracts/world.js';
import { ATTACK_COOLDOWN_MS, ATTACK_DAMAGE, checkAttack, knockedBackTo } from '../actuator-rules.js';
import type { Operation } from './operation.js';
import type { SimParts } from './sim-parts.js';

/**
 * One swing at a mob: the hit lands at once and knocks it back where there is room; the swing's cooldown is the rest of
 * the command.
 */
export function attack(parts: SimParts, op: Operation, entityId: number): void {
  const target = parts.entities.get(entityId);
  checkAttack(entityId, target, parts.body.feet);
  parts.entities.damage(entityId, ATTACK_DAMAGE);
  knockBack(parts, target!);
  op.after(ATTACK_COOLDOWN_MS, () => op.succeed());
}

/** A hit's push, where the mob has room to stand (open feet and head, ground below), as on the embedded server. */
function knockBack({ body, terrain, entities }: SimParts, target: EntityInfo): void {
  const to = knockedBackTo(body.feet, target.position);
  const [x, y, z] = [Math.floor(to.x), Math.floor(to.y), Math.floor(to.z)];
  if (terrain.passable(x, y, z) && terrain.passable(x, y + 1, z) && !terrain.passable(x, y - 1, z))
    entities.move(target.id, to);
}
