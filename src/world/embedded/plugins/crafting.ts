import { createRequire } from 'node:module';
import type { Item as ItemInstance } from 'prismarine-item';
import type { ServerWindow as Window, SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';
import { RecipeMatcher, type Grid } from './recipe-matcher.js';

const require = createRequire(import.meta.url);

interface WindowClick {
  windowId: number;
  slot: number;
  mouseButton: number;
  mode: number;
}

interface ItemClass {
  new (type: number, count: number, metadata?: number | null, nbt?: object | null): ItemInstance;
  toNotch(item: ItemInstance | null): object;
}

interface Windows {
  createWindow(id: number, type: string, title: string, slotCount?: number): Window;
  windows: Record<string, { type: number }>;
}

/** Player inventory slots 9..44 sit at 10..45 in a crafting table's window. */
const TABLE_INVENTORY_OFFSET = 1;
const INVENTORY_START = 9;
const INVENTORY_END = 44;

/**
 * Crafting, which flying-squid 1.12 lacks: its click handler ignores the 1.17+
 * `window_click` format, so the server inventory never changes and mineflayer's
 * `bot.craft` waits forever for the result slot. This plugin applies each click
 * to the server's own window (prismarine-windows, the same click rules the
 * client predicts with), recomputes the result slot from minecraft-data's
 * recipes, consumes the grid when the result is taken, and opens a 3×3 window
 * when a player uses a crafting table.
 */
export function craftingPlugin(): SquidPlugin {
  let matcher: RecipeMatcher;
  let Item: ItemClass;
  let windows: Windows;
  const tables = new WeakMap<SquidPlayer, Window>();
  let nextWindowId = 1;

  function handleClick(serv: SquidServer, player: SquidPlayer, click: WindowClick): void {
    const table = tables.get(player);
    const window = click.windowId === 0 ? player.inventory : table?.id === click.windowId ? table : null;
    if (!window) return;
    const width = window === player.inventory ? 2 : 3;
    const resultBefore = window.slots[0];
    const resultCountBefore = resultBefore?.count ?? 0;
    try {
      const item = click.slot >= 0 ? (window.slots[click.slot] ?? null) : null;
      window.acceptClick({ mode: click.mode, mouseButton: click.mouseButton, slot: click.slot, item });
    } catch (error) {
      serv.warn(`crafting: refused click ${JSON.stringify(click)}: ${String(error)}; resending the window`);
      sendWindow(player, window);
      return;
    }
    const resultAfter = window.slots[0];
    if (resultBefore && (!resultAfter || resultAfter.count < resultCountBefore)) consumeGrid(window, width);
    updateResult(window, width);
  }

  function consumeGrid(window: Window, width: number): void {
    for (let slot = 1; slot <= width * width; slot++) {
      const item = window.slots[slot];
      if (!item) continue;
      item.count -= 1;
      window.updateSlot(slot, item.count > 0 ? item : null);
    }
  }

  function updateResult(window: Window, width: number): void {
    const grid: (number | null)[][] = [];
    for (let y = 0; y < width; y++) {
      const row: (number | null)[] = [];
      for (let x = 0; x < width; x++) row.push(window.slots[1 + x + y * width]?.type ?? null);
      grid.push(row);
    }
    const result = matcher.match(grid as Grid);
    window.updateSlot(0, result ? new Item(result.id, result.count) : null);
  }

  function sendWindow(player: SquidPlayer, window: Window): void {
    player._client.write('window_items', {
      windowId: window === player.inventory ? 0 : window.id,
      stateId: 0,
      items: window.slots.map((item) => Item.toNotch(item ?? null)),
      carriedItem: Item.toNotch(window.selectedItem ?? null),
    });
  }

  function openTable(player: SquidPlayer): void {
    closeTable(player);
    const id = nextWindowId = (nextWindowId % 100) + 1;
    const table = windows.createWindow(id, 'minecraft:crafting', 'Crafting');
    for (let slot = INVENTORY_START; slot <= INVENTORY_END; slot++) {
      const item = player.inventory.slots[slot];
      table.slots[slot + TABLE_INVENTORY_OFFSET] = item ? copyOf(item, slot + TABLE_INVENTORY_OFFSET) : null;
    }
    table.on('updateSlot', (slot: number, _old: ItemInstance | null, item: ItemInstance | null) => {
      player._client.write('set_slot', { windowId: id, stateId: 0, slot, item: Item.toNotch(item ?? null) });
    });
    tables.set(player, table);
    player._client.write('open_window', {
      windowId: id,
      inventoryType: windows.windows['minecraft:crafting']!.type,
      windowTitle: { type: 'compound', name: '', value: { text: { type: 'string', value: 'Crafting' } } },
    });
    sendWindow(player, table);
  }

  /** Writes the table's view of the inventory back, and returns what was left in the grid or on the cursor. */
  function closeTable(player: SquidPlayer): void {
    const table = tables.get(player);
    if (!table) return;
    tables.delete(player);
    table.removeAllListeners('updateSlot');
    for (let slot = INVENTORY_START; slot <= INVENTORY_END; slot++) {
      const item = table.slots[slot + TABLE_INVENTORY_OFFSET];
      const current = player.inventory.slots[slot];
      if (sameStack(item ?? null, current ?? null)) continue;
      player.inventory.updateSlot(slot, item ? copyOf(item, slot) : null);
    }
    const leftovers = [table.selectedItem, ...table.slots.slice(1, 10)].filter((item): item is ItemInstance => !!item);
    for (const item of leftovers) giveBack(player, item);
  }

  function giveBack(player: SquidPlayer, item: ItemInstance): void {
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
        player.inventory.updateSlot(slot, copyOf(item, slot));
        return;
      }
    }
  }

  function copyOf(item: ItemInstance, slot: number): ItemInstance {
    const copy = new Item(item.type, item.count, item.metadata, item.nbt);
    copy.slot = slot;
    return copy;
  }

  return {
    server(serv: SquidServer) {
      matcher = new RecipeMatcher(serv.registry.recipes as never);
      Item = require('prismarine-item')(serv.registry) as ItemClass;
      windows = require('prismarine-windows')(serv.registry) as Windows;
      serv.onBlockInteraction('crafting_table', ({ player }) => {
        openTable(player);
        return true;
      });
    },
    player(player: SquidPlayer, serv: SquidServer) {
      // flying-squid's own click handler is attached after this plugin runs; it
      // mangles the server inventory on 1.17+ packets, so it is replaced once all
      // player plugins have run ('asap').
      player.once('asap', () => {
        player._client.removeAllListeners('window_click');
        player._client.on('window_click', (click: WindowClick) => handleClick(serv, player, click));
      });
      player._client.on('close_window', ({ windowId }: { windowId: number }) => {
        if (tables.get(player)?.id === windowId) closeTable(player);
      });
    },
  };
}

function sameStack(a: ItemInstance | null, b: ItemInstance | null): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.count === b.count;
}
