import { blockKey, type Observation, type Vec3Like, type WorldPort } from '../contracts/world.js';

/** The world as a step saw it, shaped as an Observation so a capability's acceptance can judge it later. */
export type WorldSnapshot = Omit<Observation, 'at'>;

/**
 * Reads the world synchronously (the WorldPort's cheap reads), so a journal
 * listener can take it inside the event that announces a step, before anything acts.
 */
export function snapshotWorld(world: WorldPort, blocks: readonly Vec3Like[] = []): WorldSnapshot {
  const position = world.position();
  const observed: Record<string, string> = {};
  for (const block of blocks) observed[blockKey(block)] = world.blockAt(block)?.name ?? 'air';
  return {
    position: { x: position.x, y: position.y, z: position.z },
    health: world.health(),
    food: world.food(),
    inventory: { ...world.inventory() },
    heldItem: world.heldItem(),
    blocks: observed,
  };
}

export function asObservation(snapshot: WorldSnapshot, at: number): Observation {
  return { at, ...snapshot, blocks: { ...snapshot.blocks } };
}
