export { BlockPosition, BotSetup, FillRegion, MAX_SCENARIO_BLOCKS, Scenario, SingleBlock, volume } from './schema.js';
export type { ScenarioInput } from './schema.js';
export { ScenarioError, loadScenario, parseScenario } from './load.js';
