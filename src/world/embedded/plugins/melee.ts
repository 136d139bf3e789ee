import { systemClock } from '../../../clock/index.js';
import type { Clock } from '../../../contracts/clock.js';
import { Melee, type MeleeHit, TICK_MS } from '../../mob-rules/index.js';
import type { SquidPlayer } from '../squid-types.js';
import { START_SPRINTING, STOP_SPRINTING } from './health.js';

/** The hotbar's first slot in a player's inventory window; the held item is this plus the selected hotbar slot. */
const HOTBAR_START = 36;

interface Movement {
  y: number;
  flags?: { onGround?: boolean };
  onGround?: boolean;
}

/** What a player holds in its main hand on the server. */
export function heldItemOf(player: SquidPlayer): string | null {
  return player.inventory.slots[HOTBAR_START + player.heldItemSlot]?.name ?? null;
}

/**
 * The embedded server's side of the melee rules (mob-rules/combat.ts): each player's attack strength, told the held
 * item every tick, and whether a swing comes while falling or sprinting, read from the player's movement and actions
 * (flying-squid keeps neither). Ticks are counted from the clock, 50 ms each, rather than from flying-squid's
 * setInterval, which falls behind on a busy host: a bot that waits out a cooldown on its clock then finds it full.
 */
export function meleeTracker(clock: Clock = systemClock) {
  const melee = new Melee();
  const motion = new WeakMap<SquidPlayer, { sprinting: boolean; falling: boolean; lastY: number | null }>();
  const now = () => Math.floor(clock.now() / TICK_MS);
  return {
    player(player: SquidPlayer): void {
      const state = { sprinting: false, falling: false, lastY: null as number | null };
      motion.set(player, state);
      player._client.on('entity_action', ({ actionId }: { actionId: string | number }) => {
        if (START_SPRINTING.has(actionId)) state.sprinting = true;
        else if (STOP_SPRINTING.has(actionId)) state.sprinting = false;
      });
      const onMove = ({ y, flags, onGround }: Movement) => {
        const grounded = flags?.onGround ?? onGround ?? false;
        state.falling = !grounded && state.lastY !== null && y < state.lastY;
        state.lastY = y;
      };
      player._client.on('position', onMove);
      player._client.on('position_look', onMove);
      player.once('disconnected', () => melee.forget(player.id));
    },
    /** Every tick: a change of held item starts a player's charge over. */
    tick(players: readonly SquidPlayer[]): void {
      const tick = now();
      for (const player of players) melee.hold(player.id, heldItemOf(player), tick);
    },
    /** The player's swing landed on this mob: what it does by the rules. */
    hit(player: SquidPlayer, mob: { id: number; name: string }): MeleeHit {
      const { sprinting = false, falling = false } = motion.get(player) ?? {};
      return melee.hit(player.id, mob, { held: heldItemOf(player), falling, sprinting }, now());
    },
    /** A mob is dead: its immunity goes. */
    forget(mobId: number): void {
      melee.forget(mobId);
    },
  };
}
