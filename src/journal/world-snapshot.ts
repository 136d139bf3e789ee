import { blockKey, type Observation, type Vec3Like, type WorldPort } from '../contracts/world.js';

/** The world as a succeeded step left it (the bot, and the blocks it touched): its journaled effects. */
export type WorldSnapshot = Omit<Observation, 'at'>;

/**
 * Reads the world synchronously (the WorldPort's cheap reads), so a journal listener can take it inside the event that
 * ends a step.
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
