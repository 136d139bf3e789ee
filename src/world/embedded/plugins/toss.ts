import { Vec3 } from 'vec3';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';

/** A click outside the window: drop what the cursor holds. */
const OUTSIDE_WINDOW = -999;
/** Vanilla lets nobody pick a thrown stack up for 40 ticks. */
const PICKUP_DELAY_MS = 2000;
/** As flying-squid's own drops: they vanish after five minutes. */
const DESPAWN_MS = 5 * 60 * 1000;
/** A throw lands about this far in front of the thrower. */
const THROW_DISTANCE = 2;

interface CursorItem {
  type: number;
  count: number;
  metadata?: number;
}

interface Tosser {
  yaw: number;
  inventory: { selectedItem: CursorItem | null };
}

/**
 * Throws what a player drops from its inventory window. flying-squid empties
 * the cursor on a click outside the window (mineflayer's `toss`) but spawns no
 * item: the stack just vanished from the world. Here it lands in front of the
 * player, as in vanilla, where anyone can pick it up after the usual delay.
 */
interface WindowClick {
  windowId: number;
  slot: number;
  mode: number;
  mouseButton: number;
}

type SpawnObject = (type: number, world: unknown, position: Vec3, options: object) => void;

export const tossPlugin: SquidPlugin = {
  player(player: SquidPlayer, serv: SquidServer) {
    const tosser = player as unknown as Tosser;
    const spawnObject = (serv as unknown as { spawnObject: SpawnObject }).spawnObject;
    const itemEntity = serv.registry.entitiesByName.item!.id;
    const thrown = (click: WindowClick) => {
      if (click.windowId !== 0 || click.slot !== OUTSIDE_WINDOW || click.mode !== 0) return;
      const held = tosser.inventory.selectedItem;
      if (!held || held.count < 1) return;
      // A right click throws one of the stack, a left click all of it.
      const count = click.mouseButton === 1 ? 1 : held.count;
      // flying-squid's yaw is in degrees, 0 facing +z, growing towards -x.
      const yaw = (tosser.yaw * Math.PI) / 180;
      const at = player.position.offset(-Math.sin(yaw) * THROW_DISTANCE, 0.5, Math.cos(yaw) * THROW_DISTANCE);
      spawnObject(itemEntity, player.world, new Vec3(at.x, at.y, at.z), {
        itemId: held.type,
        itemDamage: held.metadata ?? 0,
        itemCount: count,
        pickupTime: PICKUP_DELAY_MS,
        deathTime: DESPAWN_MS,
      });
    };
    // Before the click handler, which empties the cursor (verbtree's crafting plugin replaces flying-squid's at
    // 'asap').
    player.once('spawned', () => player._client.prependListener('window_click', thrown));
  },
};
