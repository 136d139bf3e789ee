export * from './action-result.js';
export * from './clock.js';
export * from './failure-codes.js';
export * from './intent.js';
export * from './limits.js';
export * from './plan.js';
export * from './plan-step.js';
export * from './world.js';
