import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

/** flying-squid keeps an entity's yaw and pitch in 1/256 of a turn (a protocol byte); 1.21.2+ sends degrees. */
const DEGREES_PER_BYTE_ANGLE = 360 / 256;

interface OldEntityTeleport {
  entityId: number;
  x: number;
  y: number;
  z: number;
  yaw: number;
  pitch: number;
  onGround: boolean;
}

/**
 * Completes flying-squid 1.12's `entity_teleport` for Minecraft 1.21.2+, whose
 * packet also carries a velocity and a set of relative-position flags.
 * flying-squid sends the old fields only, whenever any entity (a falling drop,
 * a walking bot) moves more than 7 blocks between two updates. Serializing it
 * then throws on every player in range, and minecraft-protocol's answer is to
 * end each of those connections through the broken serializer: nothing more
 * reaches the bots (no block change, no position) for 30 s while their sockets
 * stay open. One such drop silenced a whole 50-bot fleet.
 */
export const entityTeleportPlugin: SquidPlugin = {
  player(player: SquidPlayer, serv: SquidServer) {
    const complete = packetCompleter(serv);
    const client = player._client;
    const write = client.write.bind(client);
    client.write = (name: string, params: object) => write(name, complete(name, params));
  },
};

/**
 * What the server's protocol needs of an outgoing packet flying-squid built (packets that need nothing pass as they
 * are).
 */
export function packetCompleter(serv: SquidServer): (name: string, params: object) => object {
  if (!serv.registry.version['>=']('1.21.2')) return (_name, params) => params;
  return (name, params) => (name === 'entity_teleport' ? completed(params as OldEntityTeleport) : params);
}

function completed(packet: OldEntityTeleport): object {
  if ('flags' in packet) return packet;
  return {
    ...packet,
    dx: 0,
    dy: 0,
    dz: 0,
    yaw: packet.yaw * DEGREES_PER_BYTE_ANGLE,
    pitch: packet.pitch * DEGREES_PER_BYTE_ANGLE,
    // Every coordinate absolute: no flag set.
    flags: {},
  };
}
