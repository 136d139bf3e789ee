import type { EncounterObservation, HostileSeen } from '../../../src/executor/safety/observation.js';
import { armourOf } from '../../../src/world/mob-rules/index.js';

/** An encounter for the assessment's tests: a bot at full health and fed, bare-handed, with nothing in its pack. */
export function encounter(
  hostiles: HostileSeen[],
  bot: Partial<EncounterObservation['bot']> = {},
  ground: EncounterObservation['ground'] = { wayOut: true },
): EncounterObservation {
  return {
    hostiles,
    bot: { health: 20, food: 20, held: null, pack: [], armour: armourOf([]), foods: [], blocks: 0, ...bot },
    ground,
  };
}

/** A hostile of a kind, as the encounter sees it `distance` blocks off along x (at full health), by id. */
export const mobSeen =
  (name: string, reach: HostileSeen['reach']) =>
  (id: number, distance: number): HostileSeen => ({
    id,
    name,
    distance,
    health: 20,
    reach,
    position: { x: distance, y: 0, z: id },
  });
