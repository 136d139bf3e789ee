import type { ActuatorOptions, AttackOptions, Vec3Like, WorldPort } from '../contracts/world.js';

/** One actuator command as a wrapper sees it: its name, its arguments, and the block it touches, if any. */
export interface ActuatorCall {
  /** A core or optional actuator, or `native:<command>` for a user's own. */
  command:
    | 'goto'
    | 'stopMovement'
    | 'dig'
    | 'place'
    | 'craft'
    | 'equip'
    | 'consume'
    | 'move'
    | 'toss'
    | 'chat'
    | 'smelt'
    | 'deposit'
    | 'withdraw'
    | 'attack'
    | 'look'
    | 'sleep'
    | 'activate'
    | `native:${string}`;
  args: unknown;
  touches?: Vec3Like;
}

export type AroundActuator = (call: ActuatorCall, act: () => Promise<void>) => Promise<void>;

/**
 * The same world, with every actuator command passed through `around`, which
 * must call `act` once. Observations pass straight through. The executor's
 * actuation timers and the journal's action trace are both built on this.
 */
export function wrapActuators(world: WorldPort, around: AroundActuator): WorldPort {
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
    entities: (kinds) => world.entities(kinds),
    recipe: (item) => world.recipe(item),
    observe: (query) => world.observe(query),
    ...(world.air ? { air: () => world.air!() } : {}),
    ...(world.reconnecting ? { reconnecting: () => world.reconnecting!() } : {}),
    goto: (goal, options) => around({ command: 'goto', args: goal }, () => world.goto(goal, options)),
    stopMovement: () =>
      void around({ command: 'stopMovement', args: null }, () => Promise.resolve(world.stopMovement())),
    dig: (position, options) =>
      around({ command: 'dig', args: { position }, touches: position }, () => world.dig(position, options)),
    place: (position, item, options) =>
      around({ command: 'place', args: { position, item }, touches: position }, () =>
        world.place(position, item, options),
      ),
    craft: (item, times, options) =>
      around({ command: 'craft', args: { item, times, table: options?.table ?? null } }, () =>
        world.craft(item, times, options),
      ),
    equip: (item, destination, options) =>
      around({ command: 'equip', args: { item, destination } }, () => world.equip(item, destination, options)),
    consume: (item, options) => around({ command: 'consume', args: { item } }, () => world.consume(item, options)),
    move: (move, durationMs, options) =>
      around({ command: 'move', args: { move, durationMs } }, () => world.move(move, durationMs, options)),
    ...(world.toss
      ? {
          toss: (item: string, count: number, options?: ActuatorOptions) =>
            around({ command: 'toss', args: { item, count } }, () => world.toss!(item, count, options)),
        }
      : {}),
    ...(world.chat
      ? {
          chat: (message: string, options?: ActuatorOptions) =>
            around({ command: 'chat', args: { message } }, () => world.chat!(message, options)),
        }
      : {}),
    ...(world.smelt
      ? {
          smelt: (furnace: Vec3Like, input: string, count: number, fuel: string, options?: ActuatorOptions) =>
            around({ command: 'smelt', args: { furnace, input, count, fuel }, touches: furnace }, () =>
              world.smelt!(furnace, input, count, fuel, options),
            ),
        }
      : {}),
    ...(world.deposit
      ? {
          deposit: (container: Vec3Like, item: string, count: number, options?: ActuatorOptions) =>
            around({ command: 'deposit', args: { container, item, count }, touches: container }, () =>
              world.deposit!(container, item, count, options),
            ),
        }
      : {}),
    ...(world.withdraw
      ? {
          withdraw: (container: Vec3Like, item: string, count: number, options?: ActuatorOptions) =>
            around({ command: 'withdraw', args: { container, item, count }, touches: container }, () =>
              world.withdraw!(container, item, count, options),
            ),
        }
      : {}),
    ...(world.attack
      ? {
          attack: (entityId: number, options?: AttackOptions) =>
            around({ command: 'attack', args: { entityId } }, () => world.attack!(entityId, options)),
        }
      : {}),
    ...(world.look
      ? {
          look: (at: Vec3Like, options?: ActuatorOptions) =>
            around({ command: 'look', args: { at } }, () => world.look!(at, options)),
        }
      : {}),
    ...(world.sleep
      ? {
          sleep: (bed: Vec3Like, options?: ActuatorOptions) =>
            around({ command: 'sleep', args: { bed }, touches: bed }, () => world.sleep!(bed, options)),
        }
      : {}),
    ...(world.activate
      ? {
          activate: (block: Vec3Like, options?: ActuatorOptions & { item?: string }) =>
            around({ command: 'activate', args: { block, item: options?.item ?? null }, touches: block }, () =>
              world.activate!(block, options),
            ),
        }
      : {}),
    ...(world.native
      ? {
          native: (
            command: string,
            act: (handle: unknown, signal: AbortSignal) => Promise<void>,
            options?: ActuatorOptions,
          ) => around({ command: `native:${command}`, args: null }, () => world.native!(command, act, options)),
        }
      : {}),
    close: () => world.close(),
  };
}
