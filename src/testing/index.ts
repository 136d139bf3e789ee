/**
 * Property testing for capabilities: arbitraries from zod schemas, observations, `judgeStep`, `checkCapability`.
 *
 * @module verbtree/testing
 */
export { arbitraryFor, arbitraryOutputFor } from './arbitrary.js';
export { observation } from './observation.js';
export { guardContext, worldFromObservation } from './observed-world.js';
// The fault helpers, for property tests that schedule faults of their own.
export {
  FAULT_SYNTAX,
  FaultSpecError,
  injectWorldFaults,
  parseFaultSpec,
  parseFaultSpecs,
  type FaultRule,
} from '../world/faults/index.js';
export { injectFaults } from '../executor/fault-injection.js';
export { planArbitrary, stepArbitrary } from './plan-arbitrary.js';
export { dispatchQueryOf, judgeStep } from './judge.js';
export {
  CHECK_FAULTS,
  checkCapability,
  type CheckCapabilityOptions,
  type CheckCapabilityReport,
} from './check-capability.js';
