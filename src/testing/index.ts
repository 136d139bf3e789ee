export { arbitraryFor, arbitraryOutputFor } from './arbitrary.js';
export { observation } from './observation.js';
export { planArbitrary, stepArbitrary } from './plan-arbitrary.js';
export { dispatchQueryOf, judgeStep } from './judge.js';
export { CHECK_FAULTS, checkCapability, type CheckCapabilityOptions, type CheckCapabilityReport } from './check-capability.js';
