import { createRequire } from 'node:module';
import type { Item as ItemInstance } from 'prismarine-item';
import { Vec3 } from 'vec3';
import { openWindowOf } from './plugins/server-windows.js';
import { savedItem, type SavedItem, type SavedPlayer } from './save-file.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from './squid-types.js';

const require = createRequire(import.meta.url);

/** The inventory window's slots: 0 the 2×2 grid's result, 1..4 the grid, 5..8 armour, 9..35 the pack, 36..44 the hotbar, 45 the off hand. */
const GRID = [1, 2, 3, 4];
const FIRST_KEPT_SLOT = 5;
const LAST_SLOT = 45;
const PACK_START = 9;
const PACK_END = 44;

/** What flying-squid's login reads for a player (its playerDat.read): the fields it copies onto the player, and NBT items. */
export interface PlayerDat {
  player: {
    health: number;
    food: number;
    heldItemSlot: number;
    position: Vec3;
    gameMode?: number;
    xp?: number;
    yaw?: number;
    pitch?: number;
    onGround?: boolean;
  };
  inventory: never[];
}

/** flying-squid's own defaults for a player it has no save of (playerDat.playerDefaults). */
const NEW_PLAYER = { health: 20, food: 20, heldItemSlot: 0 };

interface ItemClass {
  new (type: number, count: number, metadata?: number | null, nbt?: object | null): ItemInstance;
}

/**
 * Players as a vanilla server keeps them: each one's state (where it stands,
 * health, food, inventory) is saved with the world, and a player who logs in
 * again under the same name (offline mode: the same uuid) comes back as it was
 * saved. flying-squid's login reads the player through {@link read}, before it
 * sends the chunks around it; the inventory is filled when the login announces
 * the player ('connected'), where the scenario gives a new player its own.
 * A player is captured from the server only once its login has restored it: a
 * save made mid-login keeps what the player was.
 */
export class PlayerSaves {
  private readonly known = new Map<string, SavedPlayer>();
  private readonly settled = new WeakSet<SquidPlayer>();
  private readonly Item: ItemClass;

  constructor(
    private readonly serv: SquidServer,
    saved: readonly SavedPlayer[],
  ) {
    for (const player of saved) this.known.set(player.uuid, player);
    this.Item = (require('prismarine-item') as (registry: unknown) => ItemClass)(serv.registry);
  }

  /** Whether the world has seen this player before (a new one gets the scenario's inventory). */
  isKnown(player: SquidPlayer): boolean {
    return this.known.has(uuidOf(player));
  }

  /** flying-squid's playerDat.read for this world: the saved player, or flying-squid's new player at the spawn point. */
  read(uuid: string, spawnPoint: Vec3): PlayerDat {
    const saved = this.known.get(uuid);
    if (!saved) return { player: { ...NEW_PLAYER, position: spawnPoint.clone() }, inventory: [] };
    const { health, food, gameMode, xp, heldItemSlot, position, yaw, pitch } = saved;
    return {
      player: {
        health,
        food,
        gameMode,
        xp,
        heldItemSlot,
        position: new Vec3(position.x, position.y, position.z),
        yaw,
        pitch,
        onGround: true,
      },
      inventory: [],
    };
  }

  /** Every player the world holds, those connected as the server holds them now; items that no longer fit the pack spill. */
  capture(): { players: SavedPlayer[]; spilled: { at: SavedPlayer['position']; item: SavedItem }[] } {
    const spilled: { at: SavedPlayer['position']; item: SavedItem }[] = [];
    for (const player of this.serv.players) {
      if (!this.settled.has(player)) continue;
      const { saved, spill } = capturePlayer(player);
      this.known.set(saved.uuid, saved);
      for (const item of spill) spilled.push({ at: saved.position, item });
    }
    return { players: [...this.known.values()], spilled };
  }

  /**
   * flying-squid saves a player at the end of its login and when it leaves; here that keeps it in
   * memory for the next save point (an item on the cursor that no longer fits the pack is lost at a
   * logout, as the live server loses it).
   */
  remember(player: SquidPlayer): void {
    if (!this.settled.has(player)) return;
    const { saved } = capturePlayer(player);
    this.known.set(saved.uuid, saved);
  }

  readonly plugin: SquidPlugin = {
    player: (player: SquidPlayer) => {
      this.holdPickups(player);
      player.once('connected', () => {
        const saved = this.known.get(uuidOf(player));
        if (saved) this.restore(player, saved);
        this.settled.add(player);
      });
    },
  };

  /**
   * flying-squid puts a player among the world's players (where a drop's
   * pickup finds it) when its login reads where it stands, but fills its
   * saved pack only when the login announces it: a restored drop it stood on
   * was picked up into the empty pack in between, and the restore then wrote
   * the saved item over it, the drop gone and the item in no save (issue 23:
   * a log felled before a SIGKILL lost at the resume). A vanilla player joins
   * with its pack; here it picks nothing up until its pack is restored.
   * Nor while a block window is open: that window holds the pack (server-windows.ts)
   * and writes it back when it closes, over an item picked up meanwhile; the
   * drop waits on the ground until the window closes.
   */
  private holdPickups(player: SquidPlayer): void {
    const picker = player as unknown as { collect?: (entity: unknown) => void };
    let collect = picker.collect;
    Object.defineProperty(player, 'collect', {
      configurable: true,
      get: () => (entity: unknown) => {
        if (this.settled.has(player) && !openWindowOf(player)) collect?.(entity);
      },
      set: (assigned: (entity: unknown) => void) => (collect = assigned),
    });
  }

  private restore(player: SquidPlayer, saved: SavedPlayer): void {
    player.foodSaturation = saved.saturation;
    for (const item of saved.inventory) {
      const known = this.serv.registry.itemsByName[item.name];
      if (!known) {
        this.serv.warn(`${saved.username}'s saved ${item.name} is not an item in this version; left out`);
        continue;
      }
      player.inventory.updateSlot(item.slot, new this.Item(known.id, item.count, 0, (item.nbt as object) ?? null));
    }
  }
}

function uuidOf(player: SquidPlayer): string {
  return player.uuid ?? (player._client as unknown as { uuid: string }).uuid;
}

/**
 * A player as the server holds it now, its pack as it will be once every open
 * window closes: a block window (chest, furnace, crafting table) holds the
 * pack while it is open, and closing it or the inventory puts the cursor's and
 * the crafting grid's items back into the pack (as ServerWindows.close does).
 */
export function capturePlayer(player: SquidPlayer): { saved: SavedPlayer; spill: SavedItem[] } {
  const slots: (SavedItem | null)[] = [];
  const leftovers: ItemInstance[] = [];
  const own = player.inventory;
  for (let slot = FIRST_KEPT_SLOT; slot <= LAST_SLOT; slot++) slots[slot] = savedItem(own.slots[slot], slot);
  if (own.selectedItem) leftovers.push(own.selectedItem);
  for (const slot of GRID) if (own.slots[slot]) leftovers.push(own.slots[slot]);
  const open = openWindowOf(player);
  if (open) {
    const offset = (open.window.inventoryStart ?? PACK_START) - PACK_START;
    for (let slot = PACK_START; slot <= PACK_END; slot++)
      slots[slot] = savedItem(open.window.slots[slot + offset], slot);
    for (const item of [open.window.selectedItem, ...open.scratch.map((slot) => open.window.slots[slot])])
      if (item) leftovers.push(item);
  }
  const spill = leftovers.flatMap((item) => (giveBack(slots, item) ? [] : [savedItem(item, 0)!]));
  const { x, y, z } = player.position;
  const fields = player as unknown as { yaw?: number; pitch?: number; xp?: number };
  return {
    saved: {
      uuid: uuidOf(player),
      username: player.username,
      position: { x, y, z },
      yaw: fields.yaw ?? 0,
      pitch: fields.pitch ?? 0,
      health: player.health,
      food: player.food,
      saturation: player.foodSaturation ?? 0,
      heldItemSlot: player.heldItemSlot ?? 0,
      gameMode: player.gameMode,
      xp: fields.xp ?? 0,
      inventory: slots.filter((item): item is SavedItem => item !== null && item !== undefined),
    },
    spill,
  };
}

/** Puts an item back into the pack as ServerWindows.giveBack does: onto a stack of its kind with room, else the first empty slot. */
function giveBack(slots: (SavedItem | null)[], item: ItemInstance): boolean {
  for (let slot = PACK_START; slot <= PACK_END; slot++) {
    const current = slots[slot];
    if (current && current.name === item.name && current.count + item.count <= item.stackSize) {
      slots[slot] = { ...current, count: current.count + item.count };
      return true;
    }
  }
  for (let slot = PACK_START; slot <= PACK_END; slot++) {
    if (!slots[slot]) {
      slots[slot] = savedItem(item, slot);
      return true;
    }
  }
  return false;
}
