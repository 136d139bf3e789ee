export { startEmbeddedWorld, type EmbeddedWorld, type EmbeddedWorldOptions } from './world/embedded/index.js';
export { injectWorldFaults, parseFaultSpecs, type FaultRule } from './world/faults/index.js';
export { botActuator, connectMineflayerWorld, MineflayerWorld } from './world/mineflayer/index.js';
export { loadScenario, parseScenario, Scenario, ScenarioError } from './world/scenario/index.js';
export { simWorldFromScenario } from './world/sim-scenario.js';
export { SimWorld } from './world/sim/index.js';
