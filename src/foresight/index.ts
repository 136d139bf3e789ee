export {
  DEFAULT_FORK_WALL_MS,
  ForkPool,
  runInFork,
  type ForkJob,
  type ForkOutcome,
  type ForkPoolOptions,
} from './fork-pool.js';
export { forkExplorer, jobFor, type ForkExplorerOptions, type ForkRunner } from './explore.js';
export { ForkWorld, forkWorld, type ForkOptions } from './fork.js';
export {
  captureView,
  MAX_VIEW_HEIGHT,
  MAX_VIEW_RADIUS,
  UNKNOWN_CELL,
  ViewBounds,
  ViewBoundsError,
  type ViewEntity,
  type CapturedView,
} from './view.js';
