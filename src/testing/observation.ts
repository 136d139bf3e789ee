import type { Observation } from '../contracts/world.js';

/**
 * An Observation with sensible defaults, for testing guards and acceptance checks as pure functions: the bot stands
 * where it is put (its feet on the ground's top) unless `footing` says otherwise.
 */
export function observation(overrides: Partial<Observation> = {}): Observation {
  return {
    at: 0,
    position: { x: 0.5, y: 0, z: 0.5 },
    footing: { onGround: true, ground: overrides.position?.y ?? 0 },
    health: 20,
    food: 20,
    inventory: {},
    heldItem: null,
    blocks: {},
    ...overrides,
  };
}
