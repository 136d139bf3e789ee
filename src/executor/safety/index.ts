export {
  type Assessment,
  assess,
  countByKind,
  type Choice,
  type CombatSettings,
  type EncounterObservation,
} from './assess.js';
export { observeEncounter, weaponStats } from './encounter.js';
export { type CheckOptions, isSafetySignal, SafetyMonitor, type SafetySignal } from './monitor.js';
export type { FastPathStep } from './responses.js';
export { DefenseTally } from './tally.js';
