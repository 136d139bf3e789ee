import type { AttackOptions } from '../../contracts/world.js';
import { ATTACK_COOLDOWN_MS, checkAttack } from '../actuator-rules.js';
import { TICK_MS } from '../mob-rules/index.js';
import { JUMP_AIRTIME_MS, JUMP_RISE_MS } from './constants.js';
import type { Operation } from './operation.js';
import type { SimParts } from './sim-parts.js';

/** A critical swing lands this long after its jump starts: past the rise, before the landing (on the way down). */
const CRITICAL_SWING_MS = (JUMP_RISE_MS + JUMP_AIRTIME_MS) / 2;
/**
 * Under a ceiling two blocks over the feet a jump rises 0.2, falls a tick and lands: the swing goes as it lands, and
 * the server, having seen the bot falling, counts it critical (test/world/combat-parity.test.ts).
 */
const LOW_CEILING_HOP_MS = 3 * TICK_MS;

/**
 * One swing at a mob with what the hand holds, by the melee rules (mob-rules/combat.ts): the hit lands at once, its
 * damage scaled by the swing's charge and cut by the mob's armour and hurt immunity, and knocks the mob back as far as
 * it has room to stand. A `critical` swing jumps first and lands on the way down, critical when the jump left the
 * ground: a full jump, or a hop into a ceiling two blocks over the feet (nothing to jump from, no critical); a `sprint`
 * swing is made sprinting.
 */
export function attack(parts: SimParts, op: Operation, entityId: number, options: AttackOptions = {}): void {
  checkAttack(entityId, parts.entities.get(entityId), parts.body.feet);
  const { body, locomotion, mobs, terrain } = parts;
  const land = (hopped = false) => {
    const target = parts.entities.get(entityId);
    checkAttack(entityId, target, body.feet);
    const falling = options.style === 'critical' && (hopped || body.cellY() > groundY);
    mobs.struck(target!, { held: body.held, falling, sprinting: options.style === 'sprint' });
    if (options.recover === false) op.succeed();
    else op.after(ATTACK_COOLDOWN_MS, () => op.succeed());
  };
  const [x, groundY, z] = [body.cellX(), body.cellY(), body.cellZ()];
  if (options.style !== 'critical') return land();
  locomotion.move(op, 'jump', 0);
  const hops = terrain.solid(x, groundY - 1, z) && !terrain.passable(x, groundY + 2, z);
  if (hops) op.after(LOW_CEILING_HOP_MS, () => land(true));
  else op.after(CRITICAL_SWING_MS, () => land());
}
