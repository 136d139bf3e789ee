import type { Observation } from '../contracts/world.js';

/** An Observation with sensible defaults, for testing guards and acceptance checks as pure functions. */
export function observation(overrides: Partial<Observation> = {}): Observation {
  return {
    at: 0,
    position: { x: 0.5, y: 0, z: 0.5 },
    health: 20,
    food: 20,
    inventory: {},
    heldItem: null,
    blocks: {},
    ...overrides,
  };
}
