export { ManualClock } from './manual-clock.js';
export { SystemClock, systemClock } from './system-clock.js';
export {
  DEFAULT_LAG_PROBE,
  LagDiscountingClock,
  longestWallWaitMs,
  stepClock,
  wallClockOf,
  type LagProbeOptions,
} from './lag-discounting-clock.js';
