import { describe, expect, it } from 'vitest';
import { craftsFor, missingIngredients, recipeFor, recipeVariants } from '../../src/world/recipes.js';

describe('recipeFor', () => {
  it('makes oak_planks from one oak_log, four at a time, by hand', () => {
    expect(recipeFor('oak_planks')).toEqual({
      item: 'oak_planks',
      yields: 4,
      ingredients: { oak_log: 1 },
      needsTable: false,
    });
  });

  it('resolves "any planks" to oak_planks for sticks and the crafting table', () => {
    expect(recipeFor('stick')).toEqual({ item: 'stick', yields: 4, ingredients: { oak_planks: 2 }, needsTable: false });
    expect(recipeFor('crafting_table')).toEqual({
      item: 'crafting_table',
      yields: 1,
      ingredients: { oak_planks: 4 },
      needsTable: false,
    });
  });

  it('picks cobblestone for a stone axe and needs a table for the 3x3 shape', () => {
    expect(recipeFor('stone_axe')).toEqual({
      item: 'stone_axe',
      yields: 1,
      ingredients: { cobblestone: 3, stick: 2 },
      needsTable: true,
    });
    expect(recipeFor('furnace')?.ingredients).toEqual({ cobblestone: 8 });
  });

  it('prefers coal over charcoal for torches', () => {
    expect(recipeFor('torch')?.ingredients).toEqual({ coal: 1, stick: 1 });
  });

  it('returns null for items without a crafting recipe and for unknown names', () => {
    expect(recipeFor('oak_log')).toBeNull();
    expect(recipeFor('not_an_item')).toBeNull();
  });

  it('given the pack, picks the variant it holds the ingredients of (as the server does), else the usual one', () => {
    expect(recipeFor('crafting_table', { birch_planks: 4 })?.ingredients).toEqual({ birch_planks: 4 });
    expect(recipeFor('torch', { charcoal: 1, stick: 1 })?.ingredients).toEqual({ charcoal: 1, stick: 1 });
    expect(recipeFor('crafting_table', { birch_planks: 3 })?.ingredients).toEqual({ oak_planks: 4 });
    expect(recipeFor('crafting_table', { oak_planks: 4, birch_planks: 4 })?.ingredients).toEqual({ oak_planks: 4 });
    const variants = recipeVariants('crafting_table').map((recipe) => Object.keys(recipe.ingredients).join());
    expect(variants[0]).toBe('oak_planks');
    expect(variants).toContain('birch_planks');
    expect(new Set(variants).size).toBe(variants.length);
  });

  it('returns the cached recipe object on repeat calls', () => {
    expect(recipeFor('stick')).toBe(recipeFor('stick'));
  });
});

describe('missingIngredients and craftsFor', () => {
  const axe = recipeFor('stone_axe')!;

  it('lists exactly the shortfall for the requested number of crafts', () => {
    expect(missingIngredients(axe, 1, { cobblestone: 3 })).toEqual({ stick: 2 });
    expect(missingIngredients(axe, 2, { cobblestone: 5, stick: 4 })).toEqual({ cobblestone: 1 });
    expect(missingIngredients(axe, 1, { cobblestone: 3, stick: 2 })).toEqual({});
  });

  it('rounds the number of crafts up to cover the count', () => {
    expect(craftsFor(recipeFor('stick')!, 5)).toBe(2);
    expect(craftsFor(recipeFor('stick')!, 4)).toBe(1);
  });
});
