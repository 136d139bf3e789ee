import type { AttackOptions } from '../../contracts/world.js';
import { ATTACK_COOLDOWN_MS, checkAttack } from '../actuator-rules.js';
import { JUMP_AIRTIME_MS, JUMP_RISE_MS } from './constants.js';
import type { Operation } from './operation.js';
import type { SimParts } from './sim-parts.js';

/** A critical swing lands this long after its jump starts: past the rise, before the landing (on the way down). */
const CRITICAL_SWING_MS = (JUMP_RISE_MS + JUMP_AIRTIME_MS) / 2;

/**
 * One swing at a mob with what the hand holds, by the melee rules (mob-rules/combat.ts): the hit lands at once, its
 * damage scaled by the swing's charge and cut by the mob's armour and hurt immunity, and knocks the mob back as far as
 * it has room to stand. A `critical` swing jumps first and lands on the way down (critical only if the jump lifted the
 * bot: a ceiling keeps it on the ground); a `sprint` swing is made sprinting.
 */
export function attack(parts: SimParts, op: Operation, entityId: number, options: AttackOptions = {}): void {
  checkAttack(entityId, parts.entities.get(entityId), parts.body.feet);
  const { body, locomotion, mobs } = parts;
  const land = () => {
    const target = parts.entities.get(entityId);
    checkAttack(entityId, target, body.feet);
    const falling = options.style === 'critical' && body.cellY() > groundY;
    mobs.struck(target!, { held: body.held, falling, sprinting: options.style === 'sprint' });
    if (options.recover === false) op.succeed();
    else op.after(ATTACK_COOLDOWN_MS, () => op.succeed());
  };
  const groundY = body.cellY();
  if (options.style !== 'critical') return land();
  locomotion.move(op, 'jump', 0);
  op.after(CRITICAL_SWING_MS, land);
}
