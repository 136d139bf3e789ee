import {
  EXHAUSTION_PER_JUMP,
  EXHAUSTION_PER_SPRINT_JUMP,
  EXHAUSTION_PER_SPRINT_METRE,
  exhaust as exhausted,
  type Hunger,
  REGEN_INTERVAL_TICKS,
  regenerationTick,
} from '../../health-rules.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

const SAFE_FALL_BLOCKS = 3;
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

  function hungerOf(player: SquidPlayer): Hunger {
    return { food: player.food, saturation: player.foodSaturation, exhaustion: exhaustion.get(player) ?? 0 };
  }

  /** Puts the rules' hunger on the player; a change of food is sent to it (saturation rides on the next update). */
  function settle(player: SquidPlayer, hunger: Hunger): void {
    exhaustion.set(player, hunger.exhaustion);
    player.foodSaturation = hunger.saturation;
    if (player.food !== hunger.food) player.updateFood(hunger.food);
  }

  function exhaust(player: SquidPlayer, amount: number): void {
    settle(player, exhausted(hungerOf(player), amount));
  }

  function regenerate(player: SquidPlayer): void {
    const before = { ...hungerOf(player), health: player.health };
    const after = regenerationTick(before);
    if (after === before) return;
    settle(player, after);
    player.updateHealth(after.health);
  }

  return {
    server(serv: SquidServer) {
      serv.on('tick', (_delta: number, tick: number) => {
        if (tick % REGEN_INTERVAL_TICKS !== 0) return;
        for (const player of serv.players) if (player.gameMode === 0) regenerate(player);
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
