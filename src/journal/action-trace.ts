import type { Vec3Like, WorldPort } from '../contracts/world.js';

/** Where a traced world reports each actuator command; the journal recorder is one. */
export interface ActionSink {
  /** Returns a handle passed back when the command settles. */
  actionStarted(command: string, args: unknown, touches?: Vec3Like): number | null;
  actionSettled(handle: number | null, error?: string): void;
}

/**
 * The same world, with every actuator command (and the block it touches)
 * reported to the sink: the provenance chain's action trace. Attached from
 * outside the executor, like any other world wrapper.
 */
export function traceActions(world: WorldPort, sink: ActionSink): WorldPort {
  const traced =
    <A extends unknown[]>(command: string, act: (...args: A) => Promise<void>, describe: (...args: A) => { args: unknown; touches?: Vec3Like }) =>
    async (...args: A): Promise<void> => {
      const { args: shown, touches } = describe(...args);
      const handle = sink.actionStarted(command, shown, touches);
      try {
        await act(...args);
        sink.actionSettled(handle);
      } catch (error) {
        sink.actionSettled(handle, error instanceof Error ? error.message : String(error));
        throw error;
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
    goto: traced('goto', (goal, options) => world.goto(goal, options), (goal) => ({ args: goal })),
    stopMovement: () => {
      sink.actionSettled(sink.actionStarted('stopMovement', null));
      world.stopMovement();
    },
    dig: traced('dig', (position, options) => world.dig(position, options), (position) => ({ args: { position }, touches: position })),
    place: traced('place', (position, item, options) => world.place(position, item, options), (position, item) => ({ args: { position, item }, touches: position })),
    craft: traced('craft', (item, times, options) => world.craft(item, times, options), (item, times, options) => ({ args: { item, times, table: options?.table ?? null } })),
    equip: traced('equip', (item, destination, options) => world.equip(item, destination, options), (item, destination) => ({ args: { item, destination } })),
    consume: traced('consume', (item, options) => world.consume(item, options), (item) => ({ args: { item } })),
    move: traced('move', (move, durationMs, options) => world.move(move, durationMs, options), (move, durationMs) => ({ args: { move, durationMs } })),
    close: () => world.close(),
  };
}
