import { Vec3 } from 'vec3';
import type { Scenario } from '../../scenario/index.js';
import type { SquidPlayer, SquidPlugin, SquidServer } from '../squid-types.js';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const HOTBAR_START = 36;
const INVENTORY_SLOTS = [...Array(9).keys()]
  .map((i) => HOTBAR_START + i)
  .concat([...Array(27).keys()].map((i) => 9 + i));

/**
 * Makes a scenario's world: every new player spawns at its spawn point with its
 * inventory, health and food; the time of day is fixed unless the scenario asks
 * for a cycle. Blocks are set separately ({@link applyScenarioBlocks}) before
 * anyone joins. A world kept in a folder knows the players it has seen
 * (`isNewPlayer`): they come back as they were saved, and the scenario's
 * inventory is not given again.
 */
export function scenarioPlugin(
  scenario: Scenario,
  options: { isNewPlayer: (player: SquidPlayer) => boolean } = { isNewPlayer: () => true },
): SquidPlugin {
  return {
    server(serv: SquidServer) {
      serv.getSpawnPoint = () =>
        Promise.resolve(new Vec3(scenario.spawn.x + 0.5, scenario.spawn.y, scenario.spawn.z + 0.5));
      serv.doDaylightCycle = scenario.daylightCycle;
      serv.setTime(scenario.timeOfDay);
    },
    player(player: SquidPlayer, serv: SquidServer) {
      // 'connected' comes after login sent the (empty) inventory and before it
      // sends health, which is when mineflayer considers the bot spawned.
      player.once('connected', () => {
        if (!options.isNewPlayer(player)) return;
        player.health = scenario.bot.health;
        player.food = scenario.bot.food;
        player.foodSaturation = Math.min(5, scenario.bot.food);
        giveInventory(serv, player, scenario.bot.inventory);
      });
    },
  };
}

function giveInventory(serv: SquidServer, player: SquidPlayer, inventory: Record<string, number>): void {
  const Item = (require('prismarine-item') as typeof import('prismarine-item').default)(serv.registry);
  const free = [...INVENTORY_SLOTS];
  for (const [name, total] of Object.entries(inventory)) {
    const item = serv.registry.itemsByName[name];
    if (!item) throw new Error(`scenario item "${name}" is not an item in ${serv.registry.version.minecraftVersion}`);
    for (let left = total; left > 0; left -= item.stackSize) {
      const slot = free.shift();
      if (slot === undefined)
        throw new Error(`scenario inventory does not fit in 36 slots; give fewer items (at "${name}")`);
      player.inventory.updateSlot(slot, new Item(item.id, Math.min(left, item.stackSize)));
    }
  }
}

/** Sets the scenario's fill regions and single blocks in the server's world, directly (no players are there yet). */
export async function applyScenarioBlocks(serv: SquidServer, scenario: Scenario): Promise<void> {
  const stateOf = (name: string): number => {
    const block = serv.registry.blocksByName[name];
    if (!block) throw new Error(`scenario block "${name}" is not a block in ${serv.registry.version.minecraftVersion}`);
    return block.defaultState;
  };
  for (const fill of scenario.fills) {
    const state = stateOf(fill.block);
    const [x0, x1] = [Math.min(fill.from.x, fill.to.x), Math.max(fill.from.x, fill.to.x)];
    const [y0, y1] = [Math.min(fill.from.y, fill.to.y), Math.max(fill.from.y, fill.to.y)];
    const [z0, z1] = [Math.min(fill.from.z, fill.to.z), Math.max(fill.from.z, fill.to.z)];
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        for (let z = z0; z <= z1; z++) await serv.overworld.setBlockStateId(new Vec3(x, y, z), state);
      }
    }
  }
  for (const block of scenario.blocks) {
    await serv.overworld.setBlockStateId(new Vec3(block.x, block.y, block.z), stateOf(block.block));
  }
}
