import { type Vec3Like, WorldError, blockKey } from '../../contracts/world.js';
import { recipeFor } from '../recipes.js';
import { type BotContext, toVec3 } from './bot-context.js';
import type { Command } from './command-runner.js';
import { confirmInventory } from './confirm.js';
import { inventorySettled, watchSlotUpdates } from './inventory-settle.js';
import { inventoryCounts } from './observe.js';

export function startCraft(
  context: BotContext,
  item: string,
  times: number,
  tablePosition: Vec3Like | null | undefined,
): Command {
  const { bot } = context;
  const itemData = bot.registry.itemsByName[item];
  if (!itemData) throw new WorldError('precondition_missing', `cannot craft "${item}": not an item in ${bot.version}`);
  const table = tablePosition ? bot.blockAt(toVec3(tablePosition)) : null;
  if (tablePosition && table?.name !== 'crafting_table') {
    throw new WorldError(
      'precondition_missing',
      `no crafting table at ${blockKey(tablePosition)} (found ${table?.name ?? 'an unloaded chunk'})`,
    );
  }
  watchSlotUpdates(context);
  // The recipe is chosen from the pack as the server holds it: a craft just before may still be echoing back.
  const done = inventorySettled(context, null).then(async () => {
    const [recipe] = bot.recipesFor(itemData.id, null, 1, table);
    if (!recipe)
      throw new WorldError('precondition_missing', `cannot craft ${item}: ${whyNoRecipe(item, table !== null)}`);
    const before = inventoryCounts(bot)[item] ?? 0;
    const expected = before + recipe.result.count * times;
    await bot.craft(recipe, times, table ?? undefined);
    const lastClickAt = context.clock.now();
    await confirmInventory(context, item, (count) => count >= expected, `${expected} ${item}`);
    await inventorySettled(context, lastClickAt);
  });
  return {
    done,
    cancel: () => {
      if (bot.currentWindow) bot.closeWindow(bot.currentWindow);
    },
  };
}

/** mineflayer only says "no recipe"; the sim's recipe book tells a missing table from missing ingredients. */
function whyNoRecipe(item: string, hasTable: boolean): string {
  const known = recipeFor(item);
  if (!known) return 'it has no crafting recipe';
  if (known.needsTable && !hasTable) return 'it needs a crafting table; pass one';
  return `missing ingredients (needs ${Object.entries(known.ingredients)
    .map(([n, c]) => `${c} ${n}`)
    .join(', ')} per craft)`;
}
