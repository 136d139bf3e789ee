import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

/** Vanilla sends a player's movement to the players tracking it every 2 ticks (EntityType.PLAYER's updateInterval). */
const PLAYER_UPDATE_INTERVAL = 2;
/** A relative move's deltas are shorts in 1/4096 of a block: a longer move since the last update is a teleport. */
const MAX_DELTA = 32767;

interface Move {
  dX: number;
  dY: number;
  dZ: number;
  onGround: boolean;
}

interface Look {
  yaw: number;
  pitch: number;
  onGround: boolean;
}

/** What a player did since its movement was last sent to the players tracking it. */
interface Pending {
  /** An absolute move (flying-squid's entity_teleport), sent before the moves made after it. */
  teleport?: object;
  move?: Move;
  look?: Look;
  headYaw?: number;
}

interface Mover {
  player: MovingPlayer;
  /** flying-squid's own broadcast to the players tracking this one. */
  write: (name: string, params: object) => void;
  changes: Pending;
}

interface MovingPlayer extends SquidPlayer {
  knownPosition?: { x: number; y: number; z: number };
  yaw: number;
  pitch: number;
  spawnEntity(entity: { id: number }): void;
}

/**
 * A player's movement reaches the players tracking it as vanilla sends it (ServerEntity.sendChanges): once every
 * 2 ticks, as one packet (a move, a turn, or both in one entity_move_look) and a head turn when the head turned.
 *
 * flying-squid relays each position packet the moment it arrives, and each change of look as two packets more
 * (entity_look and entity_head_rotation): a bot walking and turning costs each bot in view up to 60 packets a second,
 * where vanilla sends at most 20. With n bots in view of each other that is what every bot parses, n² in all; at 50
 * bots it was 90 % of the packets the bots received.
 *
 * The moves flying-squid computes are summed, not resampled, so the tracking players end exactly where flying-squid
 * holds the player (its `knownPosition`). An entity's pending movement is sent before it is spawned on another
 * player, whose spawn packet already holds the position reached.
 */
export function movementUpdatesPlugin(): SquidPlugin {
  const movers = new Map<SquidPlayer, Mover>();
  const moved = new Set<Mover>();
  const flush = (mover: Mover) => {
    moved.delete(mover);
    send(mover);
    mover.changes = {};
  };
  return {
    server(serv: SquidServer) {
      serv.on('tick', (_delta: number, tickCount: number) => {
        if (tickCount % PLAYER_UPDATE_INTERVAL === 0) for (const mover of moved) flush(mover);
      });
    },
    player(player: SquidPlayer) {
      const mover: Mover = {
        player: player as MovingPlayer,
        write: player._writeOthersNearby.bind(player),
        changes: {},
      };
      movers.set(player, mover);
      player._writeOthersNearby = (name, params) => {
        if (!hold(mover.changes, name, params)) return mover.write(name, params);
        moved.add(mover);
      };
      player.once('disconnected', () => {
        movers.delete(player);
        moved.delete(mover);
      });
      // spawnEntity is defined by flying-squid's spawn plugin, after this one; 'asap' comes after every player hook.
      player.once('asap', () => {
        const viewer = player as MovingPlayer;
        const spawn = viewer.spawnEntity.bind(player);
        viewer.spawnEntity = (entity) => {
          const spawned = movers.get(entity as SquidPlayer);
          if (spawned && moved.has(spawned)) flush(spawned);
          spawn(entity);
        };
      });
    },
  };
}

/** Keeps a movement packet in `changes` (true), or leaves any other packet to be sent now (false). */
function hold(changes: Pending, name: string, params: object): boolean {
  switch (name) {
    case 'rel_entity_move': {
      const { dX, dY, dZ, onGround } = params as Move;
      const sum = changes.move ?? { dX: 0, dY: 0, dZ: 0, onGround };
      changes.move = { dX: sum.dX + dX, dY: sum.dY + dY, dZ: sum.dZ + dZ, onGround };
      return true;
    }
    case 'entity_teleport':
      changes.teleport = params;
      delete changes.move;
      return true;
    case 'entity_look': {
      const { yaw, pitch, onGround } = params as Look;
      changes.look = { yaw, pitch, onGround };
      return true;
    }
    case 'entity_head_rotation':
      changes.headYaw = (params as { headYaw: number }).headYaw;
      return true;
    default:
      return false;
  }
}

/** Sends what a player did since its last update, as vanilla would, to the players tracking it now. */
function send({ player, write, changes }: Mover): void {
  const entityId = player.id;
  const { teleport, move, look, headYaw } = changes;
  if (teleport) write('entity_teleport', teleport);
  if (move && [move.dX, move.dY, move.dZ].some((d) => Math.abs(d) > MAX_DELTA)) {
    const at = player.knownPosition ?? player.position;
    const { yaw, pitch } = look ?? player;
    write('entity_teleport', { entityId, x: at.x, y: at.y, z: at.z, yaw, pitch, onGround: move.onGround });
  } else if (move && look) write('entity_move_look', { entityId, ...move, ...look, onGround: move.onGround });
  else if (move) write('rel_entity_move', { entityId, ...move });
  else if (look) write('entity_look', { entityId, ...look });
  if (headYaw !== undefined) write('entity_head_rotation', { entityId, headYaw });
}
