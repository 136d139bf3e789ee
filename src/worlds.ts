export { startEmbeddedWorld, type EmbeddedWorld, type EmbeddedWorldOptions } from './world/embedded/index.js';
export { FAULT_SYNTAX, FaultSpecError, injectWorldFaults, parseFaultSpec, parseFaultSpecs, type FaultRule, type ParseFaultOptions } from './world/faults/index.js';
export { botActuator, connectMineflayerWorld, MineflayerWorld } from './world/mineflayer/index.js';
export { loadScenario, parseScenario, Scenario, ScenarioError } from './world/scenario/index.js';
export { simWorldFromScenario } from './world/sim-scenario.js';
export { SimWorld } from './world/sim/index.js';
