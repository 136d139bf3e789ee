import { isNight } from '../../../contracts/world.js';
import { BED_BLOCKS, bedHeadFrom, SLEEP_MONSTER_RANGE, SLEEP_MS } from '../../actuator-rules.js';
import { Vec3 } from 'vec3';
import { mobKind } from '../../mobs.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

/** The player entity's metadata slot for its pose, and the poses (minecraft-data 1.21.4). */
const POSE_KEY = 6;
const STANDING = 0;
const SLEEPING = 2;
/** The `animation` a client reads as "left the bed" (mineflayer: entityWake). */
const LEAVE_BED = 2;
/** The `entity_action` a client sends to get up. */
const STOP_SLEEPING = 2;
const TICKS_PER_DAY = 24_000;
const TICK_MS = 50;

interface Sleeper {
  player: SquidPlayer;
  since: number;
}

interface Mob {
  type: string;
  name?: string;
  position: { x: number; y: number; z: number };
}

/**
 * Beds, which flying-squid 1.12 does not have: using one at night, with no monster within 8 blocks, lays
 * the player down (its pose, as clients read it); once every player has lain in bed for 100 ticks the
 * night is skipped to sunrise and everyone gets up. By day, or with monsters near, the player is told why
 * and stays up, as on a vanilla server.
 */
export function bedsPlugin(): SquidPlugin {
  const sleepers = new Map<SquidPlayer, Sleeper>();
  let serv: SquidServer & { entities: Record<number, Mob>; tickCount: number };

  const pose = (player: SquidPlayer, value: number) => {
    const packet = { entityId: player.id, metadata: [{ key: POSE_KEY, type: 'pose', value }] };
    player._client.write('entity_metadata', packet);
    player._writeOthersNearby('entity_metadata', packet);
  };
  const tell = (player: SquidPlayer, text: string) =>
    (player as SquidPlayer & { system(message: string): void }).system(text);

  const getUp = (player: SquidPlayer) => {
    if (!sleepers.delete(player)) return;
    const animation = { entityId: player.id, animation: LEAVE_BED };
    player._client.write('animation', animation);
    player._writeOthersNearby('animation', animation);
    pose(player, STANDING);
  };

  const monsterNear = (player: SquidPlayer) =>
    Object.values(serv.entities).some((entity) => {
      if (entity.type === 'player' || mobKind(entity.name ?? '') !== 'hostile') return false;
      const { x, y, z } = entity.position;
      return Math.hypot(x - player.position.x, y - player.position.y, z - player.position.z) <= SLEEP_MONSTER_RANGE;
    });

  return {
    server(server: SquidServer) {
      serv = server as typeof serv;
      for (const bed of Object.keys(serv.registry.blocksByName).filter((name) => name.endsWith('_bed'))) {
        serv.onBlockInteraction(bed, ({ player }) => {
          if (!isNight(Number(serv.time) % TICKS_PER_DAY)) tell(player, 'You can sleep only at night');
          else if (monsterNear(player)) tell(player, 'You may not rest now; there are monsters nearby');
          else if (!sleepers.has(player)) {
            sleepers.set(player, { player, since: serv.tickCount });
            pose(player, SLEEPING);
          }
          return true;
        });
      }
      // flying-squid places a bed item as one cell: lay both halves, the head one further from the player,
      // as SimWorld does; with no room for the head nothing is placed and the item stays in the pack.
      for (const name of BED_BLOCKS) {
        const block = serv.registry.blocksByName[name]!;
        const stateData = (part: 'head' | 'foot', facing: string) =>
          serv.setBlockDataProperties(block.defaultState - block.minStateId, block.states ?? [], { part, facing });
        serv.onItemPlace(name, async ({ player, placedPosition }) => {
          const { head, facing } = bedHeadFrom(player.position, placedPosition);
          const headCell = new Vec3(head.x, head.y, head.z);
          if (serv.registry.blocksByStateId[await serv.overworld.getBlockStateId(headCell)]?.name !== 'air') return {};
          await serv.setBlock(serv.overworld, headCell, block.minStateId + stateData('head', facing));
          return { id: block.id, data: stateData('foot', facing) };
        });
      }
      serv.on('tick', () => {
        if (sleepers.size === 0 || sleepers.size < serv.players.length) return;
        const ticks = SLEEP_MS / TICK_MS;
        if ([...sleepers.values()].some((sleeper) => serv.tickCount - sleeper.since < ticks)) return;
        serv.setTime(0);
        for (const player of [...sleepers.keys()]) getUp(player);
      });
    },
    player(player: SquidPlayer) {
      player._client.on('entity_action', ({ actionId }: { actionId: number }) => {
        if (actionId === STOP_SLEEPING) getUp(player);
      });
      player.once('disconnected', () => sleepers.delete(player));
    },
  };
}
