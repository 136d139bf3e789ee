import { Vec3 } from 'vec3';
import { HAZARD_DAMAGE_INTERVAL_MS, hazardDamage } from '../../hazards.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

const TICK_MS = 50;
const INTERVAL_TICKS = HAZARD_DAMAGE_INTERVAL_MS / TICK_MS;

/**
 * Lava, fire and magma burn, which flying-squid 1.12 does not do: a survival
 * player whose body is in lava or fire, or who stands on magma or a campfire,
 * loses the damage in src/world/hazards.ts at once and every 500 ms while it
 * stays, as SimWorld does (no lingering burning after leaving, in either world).
 */
export function hazardPlugin(): SquidPlugin {
  return {
    server(serv: SquidServer) {
      const lastBurn = new WeakMap<SquidPlayer, number>();
      /** One check in flight per player, so a slow block read cannot burn twice for one interval. */
      const checking = new WeakSet<SquidPlayer>();
      const nameAt = async (x: number, y: number, z: number): Promise<string> => {
        const state = await serv.overworld.getBlockStateId(new Vec3(x, y, z));
        return serv.registry.blocksByStateId[state]?.name ?? 'air';
      };
      const burn = async (player: SquidPlayer, tick: number): Promise<void> => {
        const [x, y, z] = [Math.floor(player.position.x), Math.floor(player.position.y), Math.floor(player.position.z)];
        const damage = hazardDamage(await nameAt(x, y, z), await nameAt(x, y + 1, z), await nameAt(x, y - 1, z));
        if (damage === 0 || player.health <= 0 || player.disconnected) return;
        lastBurn.set(player, tick);
        player.updateHealth(Math.max(0, player.health - damage));
      };
      serv.on('tick', (_delta: number, tick: number) => {
        for (const player of serv.players) {
          if (checking.has(player) || player.gameMode !== 0 || player.health <= 0 || player.disconnected) continue;
          if (tick - (lastBurn.get(player) ?? -Infinity) < INTERVAL_TICKS) continue;
          checking.add(player);
          burn(player, tick)
            .catch((error: unknown) => serv.err(`hazard check for ${player.username} failed: ${String(error)}`))
            .finally(() => checking.delete(player));
        }
      });
    },
  };
}
