export * from './capability-spec.js';
export * from './effects.js';
export * from './json-schema.js';
export { type ArgsByVerb, type NamedSchema, PlanBuilder, planBuilder, type StepOptions } from './plan-builder.js';
export * from './registry.js';
export { closestMatch } from './suggest.js';
export { argumentNames } from './argument-names.js';
