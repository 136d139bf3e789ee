import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

const SAFE_FALL_BLOCKS = 3;
const REGEN_INTERVAL_TICKS = 80;
const REGEN_MIN_FOOD = 18;
const MAX_HEALTH = 20;
/** Vanilla: healing one point costs 6 exhaustion; every 4 exhaustion costs a point of saturation, then food. */
const EXHAUSTION_PER_HEAL = 6;
const EXHAUSTION_PER_POINT = 4;

interface Movement {
  x: number;
  y: number;
  z: number;
  flags?: { onGround?: boolean };
  onGround?: boolean;
}

/**
 * Fall damage and natural regeneration, which flying-squid 1.12 lacks (and
 * 1.21.2+ clients send `onGround` inside `flags`, which it does not read).
 * A fall of more than 3 blocks costs a point per extra block; with food at 18
 * or more a survival player heals a point every 4 s, paid for in saturation
 * and then food as in vanilla.
 */
export function healthPlugin(): SquidPlugin {
  const exhaustion = new Map<SquidPlayer, number>();

  function exhaust(player: SquidPlayer, amount: number): void {
    let total = (exhaustion.get(player) ?? 0) + amount;
    while (total >= EXHAUSTION_PER_POINT) {
      total -= EXHAUSTION_PER_POINT;
      if (player.foodSaturation > 0) player.foodSaturation = Math.max(0, player.foodSaturation - 1);
      else player.food = Math.max(0, player.food - 1);
    }
    exhaustion.set(player, total);
  }

  return {
    server(serv: SquidServer) {
      serv.on('tick', (_delta: number, tick: number) => {
        if (tick % REGEN_INTERVAL_TICKS !== 0) return;
        for (const player of serv.players) {
          if (player.gameMode !== 0 || player.health <= 0 || player.health >= MAX_HEALTH || player.food < REGEN_MIN_FOOD) continue;
          exhaust(player, EXHAUSTION_PER_HEAL);
          player.updateHealth(Math.min(MAX_HEALTH, player.health + 1));
        }
      });
    },
    player(player: SquidPlayer) {
      // Starts at the last height the player stood at, so a fall counts from the ledge.
      let highestSinceGround: number | null = null;
      const onMove = ({ y, flags, onGround }: Movement) => {
        const grounded = flags?.onGround ?? onGround ?? false;
        if (!grounded) {
          highestSinceGround = Math.max(highestSinceGround ?? y, y);
          return;
        }
        const fell = highestSinceGround === null ? 0 : highestSinceGround - y;
        highestSinceGround = y;
        const damage = Math.floor(fell - SAFE_FALL_BLOCKS);
        if (damage > 0 && player.gameMode === 0 && player.health > 0) player.updateHealth(Math.max(0, player.health - damage));
      };
      // A server teleport (spawn, respawn) is not a fall. sendSelfPosition is
      // defined by a plugin that runs after this one, hence 'asap'.
      player.once('asap', () => {
        const teleport = player.sendSelfPosition.bind(player);
        player.sendSelfPosition = (position) => {
          highestSinceGround = null;
          teleport(position);
        };
      });
      player._client.on('position', onMove);
      player._client.on('position_look', onMove);
      player.once('disconnected', () => exhaustion.delete(player));
    },
  };
}
