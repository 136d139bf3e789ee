/**
 * SimWorld alone, with scenarios, generated terrain and faults, and no mineflayer types.
 *
 * @module verbtree/sim
 */
// verbtree/sim: the in-memory world and what goes with it, with no mineflayer types in sight, so a
// SimWorld-only planner compiles with skipLibCheck off (verbtree/worlds also exposes mineflayer's Bot,
// whose dependencies' typings do not pass a library check).
export {
  FAULT_SYNTAX,
  FaultSpecError,
  injectWorldFaults,
  parseFaultSpec,
  parseFaultSpecs,
  type FaultRule,
  type ParseFaultOptions,
} from './world/faults/index.js';
export { loadScenario, parseScenario, Scenario, ScenarioError } from './world/scenario/index.js';
export { simWorldFromScenario } from './world/sim-scenario.js';
export { SimWorld, type SimWorldOptions } from './world/sim/index.js';
export { survivalTerrain, type Terrain } from './world/terrain/survival-terrain.js';
// Types SimWorld's API names, exported so the API reference (npm run docs:api) can link them.
export type { Random } from './random.js';
export type { NightSpawning } from './world/mob-rules/spawning.js';
export type { ActuatorLogEntry } from './world/sim/actuator-ledger.js';
export type { MidAct, SpawnEntity } from './world/sim/entity-store.js';
export type { GroundOptions } from './world/sim/grid.js';
export type { GeneratedMob } from './world/terrain/survival-terrain.js';
export {
  captureView,
  DEFAULT_FORK_WALL_MS,
  ForkPool,
  ForkWorld,
  forkWorld,
  MAX_VIEW_HEIGHT,
  MAX_VIEW_RADIUS,
  UNKNOWN_CELL,
  ViewBounds,
  ViewBoundsError,
  runInFork,
  forkExplorer,
  type ForkExplorerOptions,
  type ForkRunner,
  type ForkJob,
  type ForkOptions,
  type ForkOutcome,
  type ForkPoolOptions,
  type ViewEntity,
  type CapturedView,
} from './foresight/index.js';
