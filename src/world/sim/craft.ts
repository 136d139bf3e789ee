import { type Vec3Like, WorldError } from '../../contracts/world.js';
import { recipeFor } from '../recipes.js';
import { CRAFT_MS } from './constants.js';
import type { Operation } from './operation.js';
import { requireIngredients, requireTable } from './requirements.js';
import type { SimParts } from './sim-parts.js';

export function craft(parts: SimParts, op: Operation, item: string, times: number, table: Vec3Like | null): void {
  const { grid, body } = parts;
  if (!Number.isInteger(times) || times < 1)
    throw new WorldError('schema_violation', `craft: times must be a positive integer, got ${times}`);
  const recipe = recipeFor(item, Object.fromEntries(body.items));
  if (!recipe) throw new WorldError('guard_failed', `craft: ${item} has no crafting recipe`);
  if (recipe.needsTable) requireTable(grid, body, item, table);
  requireIngredients(body, recipe, times);
  const craftOnce = (done: number) =>
    op.after(CRAFT_MS, () => {
      // Each craft is one transaction: a cancel between crafts keeps the finished ones and loses nothing.
      requireIngredients(body, recipe, 1);
      for (const [name, count] of Object.entries(recipe.ingredients)) body.takeItems(name, count);
      body.addItems(item, recipe.yields);
      if (done + 1 === times) op.succeed();
      else craftOnce(done + 1);
    });
  craftOnce(0);
}
