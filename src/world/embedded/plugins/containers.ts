import type { Item as ItemInstance } from 'prismarine-item';
import { Vec3 } from 'vec3';
import { blockKey, type Vec3Like } from '../../../contracts/world.js';
import { CHEST_BLOCKS, CHEST_SLOTS, FURNACE_BLOCK } from '../../actuator-rules.js';
import { burnTicks, SMELT_TICKS_PER_ITEM, smeltsInto } from '../../smelting.js';
import { savedItem, type SavedContainer } from '../save-file.js';
import type { ServerWindow as Window, SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';
import { ServerWindows, type WindowClick } from './server-windows.js';

/** A furnace's slots, as vanilla numbers them in its window. */
const [INPUT, FUEL, OUTPUT] = [0, 1, 2];
/** Crafting tables use window ids 1..100 (crafting.ts); containers take 101..200. */
const FIRST_WINDOW_ID = 101;
const WINDOW_IDS = 100;
/** The furnace window's properties (window_data): fuel left, fuel total, cook progress, cook total. */
const [FUEL_LEFT, FUEL_TOTAL, COOK_PROGRESS, COOK_TOTAL] = [0, 1, 2, 3];

interface Container {
  at: { x: number; y: number; z: number };
  kind: 'chest' | 'furnace';
  slots: (ItemInstance | null)[];
  /** Ticks of heat left in the burning fuel item, that item's whole burn, and the current item's cooking. */
  burnLeft: number;
  burnTotal: number;
  cooked: number;
  viewers: Map<SquidPlayer, Window>;
}

/** What the embedded server's chests and furnaces hold, read by the world's server truth. */
export interface ContainerStore {
  /** Item counts of the container at a cell; null when no chest or furnace stands there. */
  contentsAt(position: Vec3Like): Promise<Record<string, number> | null>;
  /** Every container's slots and every furnace's progress, for a save. */
  capture(): SavedContainer[];
  /** Fills containers as saved, before anyone joins a reopened world; a furnace goes on where it was. */
  restore(containers: readonly SavedContainer[]): void;
}

/**
 * Chests (and trapped chests and barrels) and furnaces, which flying-squid 1.12 lacks: its chest opens an
 * empty window that keeps nothing, and a furnace opens no window at all. Each container here keeps its
 * slots by position; using the block opens a server window over them (server-windows.ts), every click is
 * applied to it and mirrored to anyone else looking in. A furnace runs on the server's ticks as vanilla
 * runs one (and as SimWorld's SimFurnace does): it lights a fuel item when it has something to cook and
 * no heat left, cooks one item every 200 ticks while it burns, and goes on with nobody at it; an open
 * furnace window gets its slots and progress as they change.
 */
export function containersPlugin(): SquidPlugin & { store: ContainerStore } {
  let serv: SquidServer;
  let windows: ServerWindows;
  const containers = new Map<string, Container>();
  let nextWindowId = 0;

  function containerAt(position: Vec3Like, kind: Container['kind']): Container {
    const key = blockKey(position);
    let container = containers.get(key);
    if (!container || container.kind !== kind) {
      container = {
        at: floored(position),
        kind,
        slots: new Array<ItemInstance | null>(kind === 'chest' ? CHEST_SLOTS : 3).fill(null),
        burnLeft: 0,
        burnTotal: 0,
        cooked: 0,
        viewers: new Map(),
      };
      containers.set(key, container);
    }
    return container;
  }

  function open(player: SquidPlayer, position: Vec3, kind: Container['kind']): void {
    closeAll(player);
    const container = containerAt(position, kind);
    const id = FIRST_WINDOW_ID + (nextWindowId++ % WINDOW_IDS);
    const window =
      kind === 'chest'
        ? windows.open(player, id, 'minecraft:generic_9x3', 'Chest', container.slots)
        : windows.open(player, id, 'minecraft:furnace', 'Furnace', container.slots);
    container.viewers.set(player, window);
    if (kind === 'furnace') sendProgress(player, window, container);
  }

  function viewedBy(player: SquidPlayer, windowId?: number): Container | undefined {
    for (const container of containers.values()) {
      const window = container.viewers.get(player);
      if (window && (windowId === undefined || window.id === windowId)) return container;
    }
    return undefined;
  }

  function handleClick(player: SquidPlayer, click: WindowClick): void {
    const container = viewedBy(player, click.windowId);
    const window = container?.viewers.get(player);
    if (!container || !window) return;
    // A furnace's output slot only gives: nothing is put into it by hand.
    if (container.kind === 'furnace' && click.slot === OUTPUT && window.selectedItem && click.mode === 0) {
      windows.send(player, window);
      return;
    }
    if (!windows.click(serv, player, window, click)) return;
    for (let slot = 0; slot < container.slots.length; slot++) {
      const item = window.slots[slot] ?? null;
      container.slots[slot] = item ? windows.copyOf(item, slot) : null;
    }
    mirror(container, player);
  }

  /** Shows the container's slots to every viewer but `except` (whose window already holds them). */
  function mirror(container: Container, except?: SquidPlayer): void {
    for (const [viewer, window] of container.viewers) {
      if (viewer === except) continue;
      container.slots.forEach((item, slot) => {
        const shown = window.slots[slot] ?? null;
        if (shown?.type === item?.type && shown?.count === item?.count) return;
        window.updateSlot(slot, item ? windows.copyOf(item, slot) : null);
      });
    }
  }

  function closeAll(player: SquidPlayer, windowId?: number): void {
    for (const container of containers.values()) {
      const window = container.viewers.get(player);
      if (!window || (windowId !== undefined && window.id !== windowId)) continue;
      container.viewers.delete(player);
      windows.close(player, window);
    }
  }

  function sendProgress(player: SquidPlayer, window: Window, furnace: Container): void {
    const properties: [number, number][] = [
      [FUEL_LEFT, furnace.burnLeft],
      [FUEL_TOTAL, furnace.burnTotal],
      [COOK_PROGRESS, furnace.cooked],
      [COOK_TOTAL, SMELT_TICKS_PER_ITEM],
    ];
    for (const [property, value] of properties)
      player._client.write('craft_progress_bar', { windowId: window.id, property, value });
  }

  /** One server tick of a furnace (the same rules as SimFurnace); true when a slot changed. */
  function tickFurnace(furnace: Container): boolean {
    const [input, fuel, output] = [furnace.slots[INPUT], furnace.slots[FUEL], furnace.slots[OUTPUT]];
    const product = input ? smeltsInto(input.name) : null;
    const productId = product ? serv.registry.itemsByName[product]?.id : undefined;
    const canCook =
      productId !== undefined && (!output || (output.type === productId && output.count < output.stackSize));
    let changed = false;
    if (furnace.burnLeft === 0 && canCook && fuel) {
      furnace.burnLeft = furnace.burnTotal = burnTicks(fuel.name) ?? 0;
      furnace.slots[FUEL] = take(fuel);
      changed = true;
    }
    if (furnace.burnLeft === 0) return changed;
    furnace.burnLeft--;
    if (!canCook) {
      furnace.cooked = 0;
      return changed;
    }
    if (++furnace.cooked < SMELT_TICKS_PER_ITEM) return changed;
    furnace.cooked = 0;
    furnace.slots[INPUT] = take(input!);
    furnace.slots[OUTPUT] = output
      ? Object.assign(windows.copyOf(output, OUTPUT), { count: output.count + 1 })
      : withSlot(new windows.Item(productId, 1), OUTPUT);
    return true;
  }

  function tick(): void {
    for (const container of containers.values()) {
      if (container.kind !== 'furnace' || (container.burnLeft === 0 && !container.slots[INPUT])) continue;
      const changed = tickFurnace(container);
      if (changed) mirror(container);
      for (const [viewer, window] of container.viewers) sendProgress(viewer, window, container);
    }
  }

  const store: ContainerStore = {
    async contentsAt(position) {
      const key = blockKey(position);
      const block =
        serv.registry.blocksByStateId[await serv.overworld.getBlockStateId(floored(position))]?.name ?? 'air';
      const kind = block === FURNACE_BLOCK ? 'furnace' : CHEST_BLOCKS.includes(block) ? 'chest' : null;
      const container = containers.get(key);
      if (!kind) {
        // The block is gone (dug, replaced): so is what it held.
        containers.delete(key);
        return null;
      }
      const counts: Record<string, number> = {};
      if (container?.kind === kind)
        for (const item of container.slots) if (item) counts[item.name] = (counts[item.name] ?? 0) + item.count;
      return counts;
    },
    capture() {
      return [...containers.values()].map(({ at: { x, y, z }, kind, slots, burnLeft, burnTotal, cooked }) => ({
        at: { x, y, z },
        kind,
        slots: slots.flatMap((item, slot) => savedItem(item, slot) ?? []),
        burnLeft,
        burnTotal,
        cooked,
      }));
    },
    restore(saved) {
      for (const { at, kind, slots, burnLeft, burnTotal, cooked } of saved) {
        const container = containerAt(at, kind);
        Object.assign(container, { burnLeft, burnTotal, cooked });
        for (const { slot, name, count, nbt } of slots) {
          const item = serv.registry.itemsByName[name];
          if (!item || slot >= container.slots.length) {
            serv.warn(`a saved ${name} in the ${kind} at ${blockKey(at)} does not fit this version; left out`);
            continue;
          }
          container.slots[slot] = withSlot(new windows.Item(item.id, count, 0, (nbt as object) ?? null), slot);
        }
      }
    },
  };

  return {
    store,
    server(server: SquidServer) {
      serv = server;
      windows = new ServerWindows(serv);
      // Replacing flying-squid's own chest handler is the point: its warning that one was registered is no news.
      const warn = serv.warn.bind(serv);
      serv.warn = (message: string) => {
        if (!message.startsWith('onBlockInteraction handler was registered twice')) warn(message);
      };
      for (const block of CHEST_BLOCKS) {
        serv.onBlockInteraction(block, ({ block: { position }, player }) => {
          open(player, position, 'chest');
          return true;
        });
      }
      serv.warn = warn;
      serv.onBlockInteraction(FURNACE_BLOCK, ({ block: { position }, player }) => {
        open(player, position, 'furnace');
        return true;
      });
      serv.on('tick', tick);
    },
    player(player: SquidPlayer) {
      // After crafting.ts has replaced flying-squid's click handler ('asap'); clicks on other windows are its.
      player.once('asap', () => player._client.on('window_click', (click: WindowClick) => handleClick(player, click)));
      player._client.on('close_window', ({ windowId }: { windowId: number }) => closeAll(player, windowId));
      player.once('disconnected', () => {
        for (const container of containers.values()) container.viewers.delete(player);
      });
    },
  };
}

function take(item: ItemInstance): ItemInstance | null {
  if (item.count <= 1) return null;
  item.count -= 1;
  return item;
}

function withSlot(item: ItemInstance, slot: number): ItemInstance {
  item.slot = slot;
  return item;
}

function floored(position: Vec3Like): Vec3 {
  return new Vec3(Math.floor(position.x), Math.floor(position.y), Math.floor(position.z));
}
