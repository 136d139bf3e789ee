import type { WorldPort } from '../contracts/world.js';

export interface ActuatorListener {
  started(command: string): void;
  settled(command: string): void;
}

/**
 * The same world, but every actuator command reports when it starts and
 * settles: the executor's view of action, whatever runs the capability.
 */
export function instrumentWorld(world: WorldPort, listener: ActuatorListener): WorldPort {
  const timed =
    <A extends unknown[]>(command: string, act: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      listener.started(command);
      try {
        await act(...args);
      } finally {
        listener.settled(command);
      }
    };
  return {
    kind: world.kind,
    events: world.events,
    isConnected: () => world.isConnected(),
    position: () => world.position(),
    health: () => world.health(),
    food: () => world.food(),
    inventory: () => world.inventory(),
    heldItem: () => world.heldItem(),
    blockAt: (position) => world.blockAt(position),
    findBlocks: (query) => world.findBlocks(query),
    entities: () => world.entities(),
    recipe: (item) => world.recipe(item),
    observe: (query) => world.observe(query),
    goto: timed('goto', (goal, options) => world.goto(goal, options)),
    stopMovement: () => {
      listener.started('stopMovement');
      world.stopMovement();
      listener.settled('stopMovement');
    },
    dig: timed('dig', (position, options) => world.dig(position, options)),
    place: timed('place', (position, item, options) => world.place(position, item, options)),
    craft: timed('craft', (item, times, options) => world.craft(item, times, options)),
    equip: timed('equip', (item, destination, options) => world.equip(item, destination, options)),
    consume: timed('consume', (item, options) => world.consume(item, options)),
    move: timed('move', (move, durationMs, options) => world.move(move, durationMs, options)),
    close: () => world.close(),
  };
}
