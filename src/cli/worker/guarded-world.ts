import { WorldError, type WorldPort } from '../../contracts/world.js';

/** What a fenced bot may still do: read what it sees, stop moving, and leave. Everything else acts in the world. */
const STILL_ALLOWED = new Set([
  'isConnected',
  'stopMovement',
  'close',
  'position',
  'health',
  'food',
  'inventory',
  'heldItem',
  'blockAt',
  'findBlocks',
  'entities',
  'recipe',
  'observe',
]);

/**
 * The bot's world as its holder may use it: once `fenced()` says the worker gave the bot up, every actuator (any
 * method not in STILL_ALLOWED, so optional actuators a world adds are covered too) fails with world_disconnected
 * before it reaches the server. The executor's own checks stop a step at its next journal write; this stops the
 * command already on its way, between the fence and the disconnect.
 */
export function guardedWorld(world: WorldPort, fenced: () => string | null): WorldPort {
  return new Proxy(world, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || STILL_ALLOWED.has(property)) {
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      }
      return (...args: unknown[]) => {
        const why = fenced();
        if (why !== null) throw new WorldError('world_disconnected', `this worker gave the bot up (${why})`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
