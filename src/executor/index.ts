export {
  assembleExecutor,
  assembleLoaded,
  bindingsFor,
  builtinTreePaths,
  CapabilityTreeError,
  loadTrees,
  treeCapabilitiesOf,
  type AssembleOptions,
  type Assembly,
} from './assemble.js';
export type {
  ExecutorEvent,
  ExecutorEventType,
  EventOf,
  KeyHolder,
  PlanResult,
  StepOutcome,
  StepRecord,
} from './events.js';
export {
  createExecutor,
  type ExecutionRun,
  type Executor,
  type ExecutorEventMap,
  type ExecutorOptions,
  type RunInput,
} from './executor.js';
export { injectFaults } from './fault-injection.js';
export {
  IdempotencyStore,
  type ClaimAnswer,
  type IdempotencyClaim,
  type IdempotencyHolder,
  type IdempotencyLedger,
  type IdempotencyState,
} from './idempotency.js';
export type { AttemptLimits, AttemptOutcome, AttemptRequest, StepInvoker } from './invoker.js';
export type { TreeRecovery } from './tree-recoveries.js';
export type { CapabilitySla, ExecutionTotals } from './metrics.js';
export type { AlternativeStep, AlternativesRequest, FailureContext, Planner, PlannerReply } from './planner.js';
export { ExecutorPolicy, type ExecutorPolicyInput } from './policy.js';
export { describeProgress, type ProgressReport } from './progress-throttle.js';
export { treeInvoker } from './tree-invoker.js';
