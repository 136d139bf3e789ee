import type { EventEmitter } from 'node:events';
import type { Vec3 } from 'vec3';
import type { Item } from 'prismarine-item';

/** The slice of flying-squid's (untyped) API verbtree uses. */

/** A prismarine-windows window as the server holds it (its published types are too narrow to use). */
export interface ServerWindow extends EventEmitter {
  id: number;
  type: string;
  slots: (Item | null)[];
  selectedItem: Item | null;
  acceptClick(click: { mode: number; mouseButton: number; slot: number; item: Item | null }): unknown;
  updateSlot(slot: number, item: Item | null): void;
}

export interface SquidWorld {
  getBlockStateId(position: Vec3): Promise<number>;
  setBlockStateId(position: Vec3, stateId: number): Promise<void>;
  getBlockType(position: Vec3): Promise<number>;
}

export interface SquidClient extends EventEmitter {
  write(name: string, params: object): void;
  end(reason?: string): void;
  socket?: { destroy(): void };
}

export interface SquidPlayer extends EventEmitter {
  id: number;
  username: string;
  uuid: string;
  health: number;
  food: number;
  foodSaturation: number;
  gameMode: number;
  heldItemSlot: number;
  position: Vec3;
  world: SquidWorld;
  spawnPoint: Vec3;
  inventory: ServerWindow;
  disconnected?: boolean;
  _client: SquidClient;
  updateHealth(health: number): void;
  updateFood(food: number): void;
  updateFoodSaturation(saturation: number): void;
  /** A closure over its player (flying-squid assigns it), so it may be called unbound. */
  setXp: (...args: unknown[]) => void;
  kick(reason?: string): void;
  sendSelfPosition(position?: Vec3): void;
  _writeOthersNearby(name: string, params: object): void;
  _writeOthers(name: string, params: object): void;
  [key: string]: unknown;
}

export interface SquidPlugin {
  server?: (serv: SquidServer, settings: object) => void;
  player?: (player: SquidPlayer, serv: SquidServer) => void;
}

export interface SquidServer extends EventEmitter {
  registry: import('prismarine-registry').Registry;
  players: SquidPlayer[];
  overworld: SquidWorld;
  time: number;
  doDaylightCycle: boolean;
  tickCount: number;
  isClosed?: boolean;
  _server: EventEmitter & { clients: Record<string, SquidClient>; socketServer?: { address(): unknown } };
  /** Writes one packet to each of `players` (every "nearby" and "others" broadcast goes through it). */
  _writeArray(name: string, params: object, players: readonly SquidPlayer[]): void;
  log(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  err(message: string): void;
  createLog(): void;
  waitForReady(timeoutMs?: number): Promise<unknown>;
  addPlugin(name: string, plugin: SquidPlugin, settings?: object): void;
  setBlock(world: SquidWorld, position: Vec3, stateId: number): Promise<void>;
  setTime(time: number): void;
  getSpawnPoint(world: SquidWorld): Promise<Vec3>;
  /**
   * The block an item places: flying-squid places `{ id, data }` at `placedPosition`; `{}` places nothing and keeps the
   * item.
   */
  onItemPlace(
    itemName: string,
    handler: (data: {
      player: SquidPlayer;
      placedPosition: Vec3;
    }) => { id?: number; data?: number } | Promise<{ id?: number; data?: number }>,
    warn?: boolean,
  ): void;
  /** A block's state data (from its minStateId) with these properties set over `baseData`'s. */
  setBlockDataProperties(baseData: number, states: unknown[], properties: Record<string, string | boolean>): number;
  onBlockInteraction(
    blockName: string,
    handler: (data: { block: { position: Vec3; name: string }; player: SquidPlayer }) => boolean | Promise<boolean>,
  ): void;
  stopTickInterval(): void;
  quit(reason?: string): Promise<void>;
  destroy(): Promise<void>;
}

export interface SquidModule {
  createMCServer(options: object): SquidServer;
  /** World generators by name; `generation.name` picks one. */
  generations: Record<string, (options: never) => unknown>;
}
