export * from './clock/index.js';
export * from './contracts/index.js';
export * from './executor/index.js';
export * from './registry/index.js';
export * from './validate/index.js';
export { BindingRegistry, createTreeRunner, formatTree, lintTrees, loadTreeCatalog, type RuntimeHooks, type TreeRunner, TreeLoadError, WATCHDOG_KINDS } from './runtime/index.js';
export * from './stuck/index.js';
export { craftsFor, missingIngredients, recipeFor } from './world/recipes.js';
export { AGENT_STATES, type AgentState } from './recovery/agent-state-machine.js';
