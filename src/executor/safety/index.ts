export { assess } from './assess.js';
export {
  type Assessment,
  centroid,
  countByKind,
  type Choice,
  type CombatSettings,
  type EncounterObservation,
  round,
} from './observation.js';
export { ASSESS_RADIUS, observeEncounter, shelterAround, weaponStats } from './encounter.js';
export { type CheckOptions, isSafetySignal, SafetyMonitor, type SafetySignal } from './monitor.js';
export { wayOutOf } from './exits.js';
export type { FastPathStep } from './responses.js';
export { SHELTER_WAIT_MS, shelterWaitMs, type ShelterVerb } from './shelters.js';
export { DefenseTally } from './tally.js';
