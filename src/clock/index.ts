export { ManualClock } from './manual-clock.js';
export { SystemClock, systemClock } from './system-clock.js';
