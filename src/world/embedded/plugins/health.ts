import {
  EXHAUSTION_PER_HEAL,
  EXHAUSTION_PER_POINT,
  healsByItself,
  MAX_HEALTH,
  REGEN_INTERVAL_TICKS,
} from '../../health-rules.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

const SAFE_FALL_BLOCKS = 3;
/** Vanilla exhaustion for sprinting (per metre) and jumping; walking costs nothing. */
const EXHAUSTION_PER_SPRINT_METRE = 0.1;
const EXHAUSTION_PER_JUMP = 0.05;
const EXHAUSTION_PER_SPRINT_JUMP = 0.2;
/** The sprint actions of `entity_action`: names on current protocols, ids on old ones. */
export const START_SPRINTING = new Set<string | number>(['start_sprinting', 3]);
export const STOP_SPRINTING = new Set<string | number>(['stop_sprinting', 4]);

interface Movement {
  x: number;
  y: number;
  z: number;
  flags?: { onGround?: boolean };
  onGround?: boolean;
}

/**
 * Fall damage, hunger and natural regeneration, which flying-squid 1.12 lacks
 * (and 1.21.2+ clients send `onGround` inside `flags`, which it does not read).
 * A fall of more than 3 blocks costs a point per extra block; sprinting and
 * jumping exhaust the player, and with food at 18 or more a survival player
 * heals a point every 4 s, paid for in saturation and then food as in vanilla.
 */
export function healthPlugin(): SquidPlugin {
  const exhaustion = new Map<SquidPlayer, number>();

  function exhaust(player: SquidPlayer, amount: number): void {
    let total = (exhaustion.get(player) ?? 0) + amount;
    const foodBefore = player.food;
    while (total >= EXHAUSTION_PER_POINT) {
      total -= EXHAUSTION_PER_POINT;
      if (player.foodSaturation > 0) player.foodSaturation = Math.max(0, player.foodSaturation - 1);
      else player.food = Math.max(0, player.food - 1);
    }
    exhaustion.set(player, total);
    if (player.food !== foodBefore) player.updateFood(player.food);
  }

  return {
    server(serv: SquidServer) {
      serv.on('tick', (_delta: number, tick: number) => {
        if (tick % REGEN_INTERVAL_TICKS !== 0) return;
        for (const player of serv.players) {
          if (player.gameMode !== 0 || player.health <= 0 || player.health >= MAX_HEALTH || !healsByItself(player.food))
            continue;
          exhaust(player, EXHAUSTION_PER_HEAL);
          player.updateHealth(Math.min(MAX_HEALTH, player.health + 1));
        }
      });
    },
    player(player: SquidPlayer) {
      // Starts at the last height the player stood at, so a fall counts from the ledge.
      let highestSinceGround: number | null = null;
      let sprinting = false;
      let last: Movement | null = null;
      let wasGrounded = true;
      player._client.on('entity_action', ({ actionId }: { actionId: string | number }) => {
        if (START_SPRINTING.has(actionId)) sprinting = true;
        else if (STOP_SPRINTING.has(actionId)) sprinting = false;
      });
      const onMove = (movement: Movement) => {
        const { y, flags, onGround } = movement;
        const grounded = flags?.onGround ?? onGround ?? false;
        if (player.gameMode === 0 && last) {
          if (sprinting)
            exhaust(player, EXHAUSTION_PER_SPRINT_METRE * Math.hypot(movement.x - last.x, movement.z - last.z));
          if (wasGrounded && !grounded && y > last.y)
            exhaust(player, sprinting ? EXHAUSTION_PER_SPRINT_JUMP : EXHAUSTION_PER_JUMP);
        }
        last = movement;
        wasGrounded = grounded;
        if (!grounded) {
          highestSinceGround = Math.max(highestSinceGround ?? y, y);
          return;
        }
        const fell = highestSinceGround === null ? 0 : highestSinceGround - y;
        highestSinceGround = y;
        const damage = Math.floor(fell - SAFE_FALL_BLOCKS);
        if (damage > 0 && player.gameMode === 0 && player.health > 0)
          player.updateHealth(Math.max(0, player.health - damage));
      };
      // A server teleport (spawn, respawn) is not a fall. sendSelfPosition is
      // defined by a plugin that runs after this one, hence 'asap'.
      player.once('asap', () => {
        const teleport = player.sendSelfPosition.bind(player);
        player.sendSelfPosition = (position) => {
          highestSinceGround = null;
          last = null;
          teleport(position);
        };
      });
      player._client.on('position', onMove);
      player._client.on('position_look', onMove);
      player.once('disconnected', () => exhaustion.delete(player));
    },
  };
}
