export * from './agent-state-machine.js';
export { backoffDelayMs, type BackoffPolicy } from './backoff.js';
export * from './config.js';
export { IncidentRate } from './incident-rate.js';
export { RecoveryLearning, type LearningRecord, type OutcomeStats } from './learning.js';
export { jaccard, planSignature, PlannerLoopDetector, type PlanLike, type PlannerLoopFlag } from './planner-loop.js';
export * from './branches.js';
export { RecoveryMetrics, type RecoveryMetricsView } from './recovery-metrics.js';
export {
  RecoveryLadder,
  type ChosenBranch,
  type RecoveryLadderOptions,
  type RecoveryOutcome,
} from './recovery-ladder.js';

export * from './strategy.js';
