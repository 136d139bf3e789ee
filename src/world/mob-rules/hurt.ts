import { HURT_IMMUNITY_TICKS } from './stats.js';

/**
 * A player's immunity after a hit, as vanilla's LivingEntity.hurt keeps it: within HURT_IMMUNITY_TICKS of a hit, a new
 * one takes only what it exceeds that hit by (two zombies striking together hurt as the stronger one). Mob damage in
 * both worlds goes through one of these.
 */
export class HurtImmunity {
  private readonly last = new Map<number, { tick: number; amount: number }>();

  /** The health a hit of `amount` at `tick` actually takes off the player. */
  hurt(player: number, amount: number, tick: number): number {
    const last = this.last.get(player);
    if (last && tick - last.tick < HURT_IMMUNITY_TICKS) {
      if (amount <= last.amount) return 0;
      const excess = amount - last.amount;
      last.amount = amount;
      return excess;
    }
    this.last.set(player, { tick, amount });
    return amount;
  }

  forget(player: number): void {
    this.last.delete(player);
  }
}
