/**
 * The worlds a plan runs in: the embedded server, a mineflayer bot on any server, SimWorld, scenarios and faults.
 *
 * @module verbtree/worlds
 */
export { startEmbeddedWorld, type EmbeddedWorld, type EmbeddedWorldOptions } from './world/embedded/embedded-world.js';
export {
  FAULT_SYNTAX,
  FaultSpecError,
  injectWorldFaults,
  parseFaultSpec,
  parseFaultSpecs,
  type FaultRule,
  type ParseFaultOptions,
} from './world/faults/index.js';
export { connectMineflayerWorld, type ConnectOptions } from './world/mineflayer/connect.js';
export { MineflayerWorld, type MineflayerWorldOptions, type ServerTruth } from './world/mineflayer/mineflayer-world.js';
export type { Restart, ServerMark } from './world/server-mark.js';
export { botActuator } from './world/mineflayer/native.js';
export type { BotHandle } from './world/mineflayer/bot-handle.js';
export { loadScenario, parseScenario, Scenario, ScenarioError } from './world/scenario/index.js';
export { simWorldFromScenario } from './world/sim-scenario.js';
export { SimWorld } from './world/sim/index.js';
// Types the worlds' API names, exported so the API reference (npm run docs:api) can link them.
export type { EmbeddedServer, ServerPlayerState } from './world/embedded/embedded-server.js';
export type { Fault } from './world/faults/fault.js';
export type { FaultyWorld, Injection, WorldFaultOptions } from './world/faults/faulty-world.js';
