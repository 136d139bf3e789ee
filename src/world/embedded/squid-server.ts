import { Vec3 } from 'vec3';
import type { BlockState, DroppedItem, LivingEntity, ObservationQuery, Vec3Like } from '../../contracts/world.js';
import { MINECRAFT_VERSION } from '../recipes.js';
import type { Scenario } from '../scenario/index.js';
import { blockStateOf } from './block-states.js';
import type { InProcessEmbeddedServer, ServerPlayerState } from './embedded-server.js';
import type { ContainerStore } from './plugins/containers.js';
import type { AirStore } from './plugins/drowning.js';
import type { LivingStore } from './plugins/mobs.js';
import { captureDrops, type EntityServer } from './saved-entities.js';
import { die, shutdown } from './server-shutdown.js';
import type { SquidPlayer, SquidServer } from './squid-types.js';
import type { WorldStorage } from './world-folder.js';

/**
 * A started embedded server as verbtree sees it: the world's truth read from flying-squid's own state (blocks,
 * containers, mobs, players), the few changes tests and scenarios make to it, and its end.
 */
export class FlyingSquidServer implements InProcessEmbeddedServer {
  readonly version = MINECRAFT_VERSION;
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly serv: SquidServer,
    readonly host: string,
    readonly port: number,
    readonly scenario: Scenario,
    private readonly storage: WorldStorage | null,
    private readonly containers: ContainerStore,
    private readonly mobs: LivingStore,
    private readonly air: AirStore,
  ) {}

  async blockAt(position: Vec3Like): Promise<string> {
    const stateId = await this.serv.overworld.getBlockStateId(toVec3(position));
    return this.serv.registry.blocksByStateId[stateId]?.name ?? 'unknown';
  }

  async blockStateAt(position: Vec3Like): Promise<BlockState> {
    return blockStateOf(this.serv.registry, await this.serv.overworld.getBlockStateId(toVec3(position)));
  }

  async setBlock(position: Vec3Like, blockName: string): Promise<void> {
    const block = this.serv.registry.blocksByName[blockName];
    if (!block)
      throw new Error(
        `"${blockName}" is not a block in ${this.version}; use a minecraft-data block name such as "stone"`,
      );
    await this.serv.setBlock(this.serv.overworld, toVec3(position), block.defaultState);
  }

  containerAt(position: Vec3Like): Promise<Record<string, number> | null> {
    return this.containers.contentsAt(position);
  }

  livingEntities(query: NonNullable<ObservationQuery['entities']>, at: Vec3Like): Promise<LivingEntity[]> {
    return Promise.resolve(this.mobs.living(query, at));
  }

  droppedItems(around: Vec3Like, radius: number): Promise<DroppedItem[]> {
    const lying = captureDrops(this.serv as EntityServer, Date.now()).filter(
      ({ position: { x, y, z } }) => Math.hypot(x - around.x, y - around.y, z - around.z) <= radius,
    );
    return Promise.resolve(lying.map(({ name, count, position }) => ({ name, count, position })));
  }

  player(username: string): ServerPlayerState | null {
    const player = this.serv.players.find((p) => p.username === username);
    if (!player) return null;
    const { x, y, z } = player.position;
    return {
      position: { x, y, z },
      health: player.health,
      food: player.food,
      air: this.air.of(player),
      inventory: inventoryOf(player),
    };
  }

  playerNames(): string[] {
    return this.serv.players.map((p) => p.username);
  }

  setTimeOfDay(ticks: number): void {
    this.serv.setTime(ticks);
  }

  timeOfDay(): number {
    return Number(this.serv.time) % 24_000;
  }

  setHealth(username: string, health: number): boolean {
    const player = this.findPlayer(username);
    player?.updateHealth(Math.max(0, Math.min(20, health)));
    return player !== undefined;
  }

  setFood(username: string, food: number): boolean {
    const player = this.findPlayer(username);
    player?.updateFood(Math.max(0, Math.min(20, Math.round(food))));
    return player !== undefined;
  }

  private findPlayer(username: string): SquidPlayer | undefined {
    return this.serv.players.find((p) => p.username === username);
  }

  kick(username: string, reason = 'Kicked by verbtree'): boolean {
    const player = this.serv.players.find((p) => p.username === username);
    if (!player) return false;
    player.kick(reason);
    return true;
  }

  stop(): Promise<void> {
    this.stopping ??= shutdown(this.serv, this.storage);
    return this.stopping;
  }

  crash(): Promise<void> {
    this.stopping ??= die(this.serv, this.storage);
    return this.stopping;
  }
}

function inventoryOf(player: SquidPlayer): Record<string, number> {
  const counts: Record<string, number> = {};
  for (let slot = 9; slot <= 45; slot++) {
    const item = player.inventory.slots[slot];
    if (item) counts[item.name] = (counts[item.name] ?? 0) + item.count;
  }
  return counts;
}

function toVec3(position: Vec3Like): Vec3 {
  return new Vec3(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z));
}
