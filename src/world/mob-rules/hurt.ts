import { HURT_IMMUNITY_TICKS } from './stats.js';

/**
 * A player's immunity after a hit, as vanilla's LivingEntity.hurt keeps it: within HURT_IMMUNITY_TICKS of a hit, a new
 * one takes only what it exceeds that hit by (two zombies striking together hurt as the stronger one). Mob damage in
 * both worlds goes through one of these, and so does a player's melee on a mob (a mob is immune alike).
 */
export class HurtImmunity {
  private readonly last = new Map<number, { tick: number; amount: number }>();

  /** The health a hit of `amount` at `tick` actually takes off the player. */
  hurt(player: number, amount: number, tick: number): number {
    return this.strike(player, amount, tick).damage;
  }

  /**
   * A hit of `amount` at `tick`: the health it takes, and whether it is a fresh hit (outside the immunity), the only
   * kind that knocks back or makes a mob turn on its attacker.
   */
  strike(victim: number, amount: number, tick: number): { damage: number; fresh: boolean } {
    const last = this.last.get(victim);
    if (last && tick - last.tick < HURT_IMMUNITY_TICKS) {
      if (amount <= last.amount) return { damage: 0, fresh: false };
      const excess = amount - last.amount;
      last.amount = amount;
      return { damage: excess, fresh: false };
    }
    this.last.set(victim, { tick, amount });
    return { damage: amount, fresh: true };
  }

  forget(player: number): void {
    this.last.delete(player);
  }
}
