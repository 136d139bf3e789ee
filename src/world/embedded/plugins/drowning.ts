import { Vec3 } from 'vec3';
import { MAX_AIR, PLAYER_EYE_HEIGHT, airForClient, breathe, eyesInWater, isWaterFilled } from '../../breath-rules.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

/** Entity metadata index of every entity's air supply (an int), which mineflayer reads as `bot.oxygenLevel`. */
const AIR_SUPPLY_KEY = 1;
const SURVIVAL = 0;
const ADVENTURE = 2;

/** The air each player has left, as the server holds it. */
export interface AirStore {
  of(player: SquidPlayer): number;
}

interface Column {
  getBlockStateId(at: Vec3): number;
}

/**
 * Drowning, which flying-squid 1.12 lacks: every tick a survival player whose eyes are in water loses a tick of air,
 * and with none left takes 2 damage every 20 ticks; out of water the air refills (src/world/breath-rules.ts holds
 * the vanilla numbers). The client is told its air whenever it changes, so mineflayer's `bot.oxygenLevel` follows.
 * Blocks are read synchronously from the loaded chunk columns: one read or two per player per tick.
 */
export function drowningPlugin(): SquidPlugin & { air: AirStore } {
  const airOf = new WeakMap<SquidPlayer, number>();
  return {
    air: { of: (player) => airOf.get(player) ?? MAX_AIR },
    server(serv: SquidServer) {
      const world = serv.overworld as unknown as { sync: { getColumn(x: number, z: number): Column | undefined } };
      const cellAt = new Vec3(0, 0, 0);
      const stateAt = (x: number, y: number, z: number): { name: string; level: number } | null => {
        const column = world.sync.getColumn(x >> 4, z >> 4);
        if (!column) return null;
        const stateId = column.getBlockStateId(cellAt.set(x & 15, y, z & 15));
        const block = serv.registry.blocksByStateId[stateId] as { name: string; minStateId?: number } | undefined;
        if (!block) return null;
        return { name: block.name, level: stateId - (block.minStateId ?? stateId) };
      };
      const eyesUnder = (player: SquidPlayer): boolean => {
        const eyeY = player.position.y + PLAYER_EYE_HEIGHT;
        const [x, y, z] = [Math.floor(player.position.x), Math.floor(eyeY), Math.floor(player.position.z)];
        const eyes = stateAt(x, y, z);
        if (!eyes || !isWaterFilled(eyes.name)) return false;
        const above = stateAt(x, y + 1, z);
        return eyesInWater(eyes.name, eyes.level, above !== null && isWaterFilled(above.name), eyeY, y);
      };
      serv.on('tick', () => {
        for (const player of serv.players) {
          if (player.disconnected) continue;
          // A dead player breathes afresh once respawned: the respawn packet resets the client's metadata to full air.
          if (player.health <= 0) {
            airOf.delete(player);
            continue;
          }
          const before = airOf.get(player) ?? MAX_AIR;
          const canDrown = player.gameMode === SURVIVAL || player.gameMode === ADVENTURE;
          const { air, damage } = canDrown ? breathe(before, eyesUnder(player)) : breathe(before, false);
          airOf.set(player, air);
          if (airForClient(air) !== airForClient(before)) tellAir(player, airForClient(air));
          if (damage > 0) player.updateHealth(Math.max(0, player.health - damage));
        }
      });
    },
  };
}

function tellAir(player: SquidPlayer, air: number): void {
  player._client.write('entity_metadata', {
    entityId: player.id,
    metadata: [{ key: AIR_SUPPLY_KEY, type: 'int', value: air }],
  });
}
