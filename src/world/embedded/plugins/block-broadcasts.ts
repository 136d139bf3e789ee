import type { Vec3 } from 'vec3';
import type { SquidPlayer, SquidPlugin, SquidServer, SquidWorld } from '../squid-types.js';

interface BlockServer extends SquidServer {
  notifyNeighborsOfStateChange(world: SquidWorld, position: Vec3, fromTick: number, tick: number, force: boolean): void;
  updateBlock(world: SquidWorld, position: Vec3, fromTick: number, tick: number, force: boolean): void;
  playSound(sound: string, world: SquidWorld, position: Vec3 | null, options?: SoundOptions): void;
  getNearby(area: { world: SquidWorld; position: Vec3; radius: number }): SquidPlayer[];
  supportFeature(feature: string): boolean;
}

interface SoundOptions {
  whitelist?: SquidPlayer | SquidPlayer[];
  blacklist?: SquidPlayer[];
  radius?: number;
  volume?: number;
  pitch?: number;
  soundCategory?: number;
}

interface BlockWorld extends SquidWorld {
  setBlockType(position: Vec3, type: number): Promise<void>;
  setBlockData(position: Vec3, data: number): Promise<void>;
}

/**
 * A block change and a block's sound reach the players as one packet serialized once and written to each of them
 * (the fan-out's `_writeArray`), as a vanilla server builds one packet per change and sends it to every player
 * tracking the chunk.
 *
 * flying-squid writes each change (`serv.setBlock`, a dig's `player.changeBlock`) and each sound (`serv.playSound`, at
 * every placement) to each player in turn through that player's own serializer, compressor and framer: with 300 bots in
 * view of each other placing and digging within the same second, 300 places and 300 digs are 180,000 serializations of
 * a block change and 90,000 of a sound, which with the logins' work kept the world server busy past its keep-alive
 * limit (bots kicked with `KeepAliveTimeout`, placements whose `blockUpdate` never came). Who receives what is
 * flying-squid's, unchanged: a change goes to every player in the world (a dig's to everyone but the digger, who is
 * told by its acknowledgement), a sound to the players within its radius; the world is then set and its neighbours
 * told as flying-squid does.
 */
export const blockBroadcastsPlugin: SquidPlugin = {
  server(server: SquidServer) {
    const serv = server as BlockServer;
    serv.setBlock = async (world, position, stateId) => {
      serv._writeArray('block_change', blockChange(position, stateId), inWorld(serv, world));
      await world.setBlockStateId(position, stateId);
      settle(serv, world, position, stateId);
    };
    const playSound = serv.playSound.bind(serv);
    serv.playSound = (sound, world, position, options = {}) => {
      // A sound for chosen players, one placed at each listener's own position, or a protocol's before 1.19.3 (its
      // named_sound_effect): flying-squid's.
      if (options.whitelist !== undefined || !position || !serv.supportFeature('removedNamedSoundEffectPacket'))
        return playSound(sound, world, position, options);
      const { blacklist = [], radius = 32, volume = 1, pitch = 1, soundCategory = 0 } = options;
      const listeners = serv.getNearby({ world, position, radius }).filter((player) => !blacklist.includes(player));
      serv._writeArray('sound_effect', soundEffect(sound, position, { volume, pitch, soundCategory }), listeners);
    };
    // A player's changeBlock is flying-squid's blocks plugin's, set by the time the server announces the player.
    serv.on('newPlayer', (player: SquidPlayer) => {
      player.changeBlock = async (position: Vec3, blockType: number, blockData: number) => {
        const world = player.world as BlockWorld;
        const others = inWorld(serv, world).filter((other) => other !== player);
        // flying-squid sends the block's type where the packet takes a state (a dig's air, 0, is both).
        serv._writeArray('block_change', blockChange(position, blockType), others);
        await world.setBlockType(position, blockType);
        await world.setBlockData(position, blockData);
        settle(serv, world, position, blockType);
      };
    });
  },
};

/** As flying-squid follows a change: air tells its neighbours, a block is updated (both on the game's tick). */
function settle(serv: BlockServer, world: SquidWorld, position: Vec3, stateId: number): void {
  if (stateId === 0) serv.notifyNeighborsOfStateChange(world, position, serv.tickCount, serv.tickCount, true);
  else serv.updateBlock(world, position, serv.tickCount, serv.tickCount, true);
}

function inWorld(serv: SquidServer, world: SquidWorld): SquidPlayer[] {
  return serv.players.filter((player) => player.world === world);
}

function blockChange(position: Vec3, stateId: number): object {
  return { location: position, type: stateId };
}

/** flying-squid's sound_effect for 1.19.3 on, its position and pitch reckoned as flying-squid reckons them. */
function soundEffect(
  soundName: string,
  position: Vec3,
  { volume, pitch, soundCategory }: { volume: number; pitch: number; soundCategory: number },
): object {
  const at = position
    .scaled(1 / 32)
    .scaled(8)
    .floored();
  return {
    sound: { data: { soundName } },
    soundCategory,
    x: at.x,
    y: at.y,
    z: at.z,
    volume,
    pitch: Math.round(pitch * 63),
    seed: 0,
  };
}
