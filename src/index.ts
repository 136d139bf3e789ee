/**
 * The core: plans and their validation, the capability registry, the executor and its events, the tree runtime,
 * stuck detection, the clock, and the kit capabilities share.
 *
 * @module verbtree
 */
export * from './clock/index.js';
export * from './contracts/index.js';
export * from './executor/index.js';
export * from './registry/index.js';
export * from './validate/index.js';
export {
  BindingRegistry,
  createTreeRunner,
  formatTree,
  lintTrees,
  loadTreeCatalog,
  type RuntimeHooks,
  type TreeRunner,
  TreeLoadError,
  WATCHDOG_KINDS,
} from './runtime/index.js';
export * from './stuck/index.js';
export { craftsFor, MINECRAFT_VERSION, missingIngredients, recipeFor } from './world/recipes.js';
export { burnTicks, FUELS, fuelFor, SMELT_TICKS_PER_ITEM, smeltingInputsOf, smeltsInto } from './world/smelting.js';
export {
  ATTACK_DAMAGE,
  ATTACK_REACH,
  attackDistance,
  BED_BLOCKS,
  CHEST_BLOCKS,
  CHEST_SLOTS,
  MOB_HEALTH,
  SLEEP_MONSTER_RANGE,
} from './world/actuator-rules.js';
export {
  ACTIVATE_REACH,
  activationOf,
  blockState,
  isOpenable,
  sameBlockState,
  TILLABLE,
  toggledProperty,
} from './world/activation.js';
// Vanilla block data (how long a block takes to dig with a tool, what it drops), as both worlds use it.
export { digTimeMs, dropsOf } from './world/sim/block-data.js';
export { AGENT_STATES, type AgentState } from './recovery/agent-state-machine.js';
// Branch exploration's plain parts (the forks that run branches are verbtree/sim's forkExplorer).
export {
  BranchConfigSchema,
  chooseBranch,
  scoreBranch,
  type BranchCandidate,
  type BranchConfig,
  type BranchExplorer,
  type BranchRequest,
  type BranchSource,
  type BranchStep,
  type BranchTrial,
  type ScoredBranch,
} from './recovery/branches.js';
export type { RecoveryMetricsView } from './recovery/recovery-metrics.js';
export { HOSTILE_MOBS, mobKind, MOB_NAMES } from './world/mobs.js';
export { isSolidBlock } from './world/hazards.js';
export { EYE_HEIGHT, REACH, reachDistance, withinReach } from './world/reach.js';
export { MissingPackageError } from './missing-package.js';
// What the verbs share (waiting, drops, spots, block tags, entity targets, chests): a capability imports it from here.
export * from './kit/index.js';
// Types the exported API names in its signatures, exported so the API reference (npm run docs:api) can link them.
export type { AcceptedStep, Base as ExecutorEventBase, StepBase as StepEventBase } from './executor/events.js';
export type { ReplaceAnswer } from './executor/run-control.js';
export type { CompiledNode, CompiledTree } from './runtime/compile.js';
export type {
  ActuationEvent,
  NodeStateChange,
  NodeStatesEvent,
  ProgressEvent,
  RunEndEvent,
  RunEvent as TreeRunEvent,
  WatchdogTripEvent,
} from './runtime/hooks.js';
export type { RunContextParts } from './runtime/invocation.js';
export type { LintOptions, TreeCapability } from './runtime/lint.js';
export type { TreeOutcome } from './runtime/outcome.js';
export type { TreeCatalog } from './runtime/tree-catalog.js';
export { COMPOSITE_TYPES, DECORATOR_TYPES, LEAF_TYPES } from './runtime/tree-definition.js';
export type {
  AttributeDefinition,
  NodeArgument,
  NodeType,
  TreeFile,
  TreeNodeDefinition,
  TreeProblem,
} from './runtime/tree-definition.js';
export type { RunOptions as TreeRunOptions, TreeRunnerOptions } from './runtime/tree-runner.js';
export type { WatchdogDefaults, WatchdogSpec } from './runtime/watchdog-spec.js';
