export { type ActuatorLogEntry } from './actuator-ledger.js';
export { DEFAULT_GROUND, type GroundOptions } from './grid.js';
export { deriveSeed, mulberry32, randomInt, type Random } from '../../random.js';
export {
  type ScenarioName,
  type ScenarioOptions,
  SCENARIOS,
  type SimScenario,
  boxedIn,
  flappingGoal,
  forest,
  obstacleInPath,
  unreachableTarget,
  walledIn,
} from './scenarios.js';
export {
  CRAFT_MS,
  EAT_MS,
  EQUIP_MS,
  JUMP_AIRTIME_MS,
  JUMP_RISE_MS,
  PICKUP_RANGE,
  PLACE_MS,
  REACH,
  TABLE_RANGE,
  WALK_SPEED,
  WALK_STEP_MS,
} from './constants.js';
export { type SpawnEntity } from './entity-store.js';
export { SimWorld, type SimWorldOptions } from './sim-world.js';
export { type Outcome, settle, track } from './settle.js';
