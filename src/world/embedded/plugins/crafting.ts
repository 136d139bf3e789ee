import type { ServerWindow as Window, SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';
import { RecipeMatcher } from './recipe-matcher.js';
import { ServerWindows, type WindowClick } from './server-windows.js';

/** A crafting table's grid, in its window (slot 0 is the result). */
const TABLE_GRID = [1, 2, 3, 4, 5, 6, 7, 8, 9];

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
  let windows: ServerWindows;
  const tables = new WeakMap<SquidPlayer, Window>();
  let nextWindowId = 1;

  function handleClick(serv: SquidServer, player: SquidPlayer, click: WindowClick): void {
    const table = tables.get(player);
    const window = click.windowId === 0 ? player.inventory : table?.id === click.windowId ? table : null;
    if (!window) return;
    const width = window === player.inventory ? 2 : 3;
    const resultBefore = window.slots[0];
    const resultCountBefore = resultBefore?.count ?? 0;
    if (!windows.click(serv, player, window, click)) return;
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
    const result = matcher.match(grid);
    window.updateSlot(0, result ? new windows.Item(result.id, result.count) : null);
  }

  function openTable(player: SquidPlayer): void {
    closeTable(player);
    // Crafting tables take window ids 1..100; containers (containers.ts) the ones above.
    const id = (nextWindowId = (nextWindowId % 100) + 1);
    tables.set(player, windows.open(player, id, 'minecraft:crafting', 'Crafting', [], TABLE_GRID));
  }

  /** Writes the table's view of the inventory back, and returns what was left in the grid or on the cursor. */
  function closeTable(player: SquidPlayer): void {
    const table = tables.get(player);
    if (!table) return;
    tables.delete(player);
    windows.close(player, table);
  }

  return {
    server(serv: SquidServer) {
      matcher = new RecipeMatcher(serv.registry.recipes as never);
      windows = new ServerWindows(serv);
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
