export * from './clock/index.js';
export * from './contracts/index.js';
export * from './registry/index.js';
export * from './validate/index.js';
export { craftsFor, missingIngredients, recipeFor } from './world/recipes.js';
