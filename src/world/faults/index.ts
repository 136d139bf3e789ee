export { FAULT_KINDS, type Fault, type FaultKind, InjectedFault, describeFault } from './fault.js';
export { FaultyWorld, type Injection, type WorldFaultOptions, injectWorldFaults } from './faulty-world.js';
export { type RunnerFaultOptions, injectRunnerFaults, withRunnerFault } from './faulty-runner.js';
export { delay, stall } from './inject.js';
export {
  FAULT_SYNTAX,
  type FaultRule,
  FaultSpecError,
  type ParseFaultOptions,
  parseFaultSpec,
  parseFaultSpecs,
} from './parse.js';
export { ACTUATOR_METHODS, type ActuatorMethod, VERB_ACTUATORS, isActuatorMethod } from './targets.js';
