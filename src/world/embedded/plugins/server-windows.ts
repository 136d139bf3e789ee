import { createRequire } from 'node:module';
import type { Item as ItemInstance } from 'prismarine-item';
import type { ServerWindow as Window, SquidPlayer, SquidServer } from '../squid-types.js';

const require = createRequire(import.meta.url);

/** The player's main inventory and hotbar, as slots of its own inventory window. */
const INVENTORY_START = 9;
const INVENTORY_END = 44;

export interface WindowClick {
  windowId: number;
  slot: number;
  mouseButton: number;
  mode: number;
}

interface ItemClass {
  new (type: number, count: number, metadata?: number | null, nbt?: object | null): ItemInstance;
  toNotch(item: ItemInstance | null): object;
}

/** The window a player has open over a block, and its scratch slots (a crafting grid) that go back to the pack on close. */
export interface OpenWindow {
  window: Window & { inventoryStart?: number };
  scratch: readonly number[];
}

/** Each player's open block window (one at most, as in vanilla), whichever plugin opened it. */
const openWindows = new WeakMap<SquidPlayer, OpenWindow>();

/** The block window a player has open, if any: while it is, the window (not the player's inventory) holds the pack. */
export function openWindowOf(player: SquidPlayer): OpenWindow | undefined {
  return openWindows.get(player);
}

interface Windows {
  createWindow(id: number, type: string, title: string, slotCount?: number): Window & { inventoryStart: number };
  windows: Record<string, { type: number }>;
}

/**
 * Windows a block opens on the server (a crafting table, a chest, a furnace), which flying-squid 1.12 does
 * not keep: each is a prismarine-windows window holding the block's slots and a copy of the player's
 * inventory, so a click is applied with the same rules the client predicts with. The copy is written back
 * to the player's inventory when the window closes, and whatever the cursor or a scratch slot still holds
 * goes back into the pack.
 */
export class ServerWindows {
  readonly Item: ItemClass;
  private readonly windows: Windows;

  constructor(serv: SquidServer) {
    this.Item = (require('prismarine-item') as (registry: SquidServer['registry']) => ItemClass)(serv.registry);
    this.windows = (require('prismarine-windows') as (registry: SquidServer['registry']) => Windows)(serv.registry);
  }

  /**
   * Opens a window of `type` on the player's client: `contents` fill its first slots, the pack the rest;
   * what `scratch` slots hold when it closes goes back to the pack.
   */
  open(
    player: SquidPlayer,
    id: number,
    type: string,
    title: string,
    contents: readonly (ItemInstance | null)[] = [],
    scratch: readonly number[] = [],
  ): Window {
    const window = this.windows.createWindow(id, type, title);
    contents.forEach((item, slot) => (window.slots[slot] = item ? this.copyOf(item, slot) : null));
    const offset = window.inventoryStart - INVENTORY_START;
    for (let slot = INVENTORY_START; slot <= INVENTORY_END; slot++) {
      const item = player.inventory.slots[slot];
      window.slots[slot + offset] = item ? this.copyOf(item, slot + offset) : null;
    }
    window.on('updateSlot', (slot: number, _old: ItemInstance | null, item: ItemInstance | null) => {
      player._client.write('set_slot', { windowId: id, stateId: 0, slot, item: this.Item.toNotch(item ?? null) });
    });
    player._client.write('open_window', {
      windowId: id,
      inventoryType: this.windows.windows[type]!.type,
      windowTitle: { type: 'compound', name: '', value: { text: { type: 'string', value: title } } },
    });
    this.send(player, window);
    openWindows.set(player, { window, scratch });
    return window;
  }

  /** Writes the window's view of the pack back, and returns the scratch slots' and the cursor's items to the pack. */
  close(player: SquidPlayer, window: Window & { inventoryStart?: number }): void {
    const open = openWindows.get(player);
    const scratch = open?.window === window ? open.scratch : [];
    if (open?.window === window) openWindows.delete(player);
    window.removeAllListeners('updateSlot');
    const offset = (window.inventoryStart ?? INVENTORY_START) - INVENTORY_START;
    for (let slot = INVENTORY_START; slot <= INVENTORY_END; slot++) {
      const item = window.slots[slot + offset] ?? null;
      const current = player.inventory.slots[slot] ?? null;
      if (sameStack(item, current)) continue;
      player.inventory.updateSlot(slot, item ? this.copyOf(item, slot) : null);
    }
    const leftovers = [window.selectedItem, ...scratch.map((slot) => window.slots[slot])].filter(
      (item): item is ItemInstance => !!item,
    );
    for (const item of leftovers) this.giveBack(player, item);
  }

  /** Applies a click to the window as the client predicted it; false (and the window resent) when refused. */
  click(serv: SquidServer, player: SquidPlayer, window: Window, click: WindowClick): boolean {
    try {
      const item = click.slot >= 0 ? (window.slots[click.slot] ?? null) : null;
      window.acceptClick({ mode: click.mode, mouseButton: click.mouseButton, slot: click.slot, item });
      return true;
    } catch (error) {
      serv.warn(`windows: refused click ${JSON.stringify(click)}: ${String(error)}; resending the window`);
      this.send(player, window);
      return false;
    }
  }

  send(player: SquidPlayer, window: Window): void {
    player._client.write('window_items', {
      windowId: window === player.inventory ? 0 : window.id,
      stateId: 0,
      items: window.slots.map((item) => this.Item.toNotch(item ?? null)),
      carriedItem: this.Item.toNotch(window.selectedItem ?? null),
    });
  }

  copyOf(item: ItemInstance, slot: number): ItemInstance {
    const copy = new this.Item(item.type, item.count, item.metadata, item.nbt);
    copy.slot = slot;
    return copy;
  }

  private giveBack(player: SquidPlayer, item: ItemInstance): void {
    for (let slot = INVENTORY_START; slot <= INVENTORY_END; slot++) {
      const current = player.inventory.slots[slot];
      if (current && current.type === item.type && current.count + item.count <= current.stackSize) {
        current.count += item.count;
        player.inventory.updateSlot(slot, current);
        return;
      }
    }
    for (let slot = INVENTORY_START; slot <= INVENTORY_END; slot++) {
      if (!player.inventory.slots[slot]) {
        player.inventory.updateSlot(slot, this.copyOf(item, slot));
        return;
      }
    }
  }
}

function sameStack(a: ItemInstance | null, b: ItemInstance | null): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.count === b.count;
}
