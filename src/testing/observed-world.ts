import { EventEmitter } from 'eventemitter3';
import type { GuardContext } from '../registry/capability-spec.js';
import {
  blockKey,
  type BlockInfo,
  type BlockQuery,
  type EntityInfo,
  type Observation,
  type Vec3Like,
  WorldError,
  type WorldEvents,
  type WorldPort,
} from '../contracts/world.js';
import { recipeFor } from '../world/recipes.js';

const refuse = (what: string) => () =>
  Promise.reject(
    new WorldError(
      'guard_failed',
      `${what}: a world built from an observation only answers reads; test actions on SimWorld`,
    ),
  );

/**
 * A read-only world that answers from one observation, for testing a guard (or sub-goals) as a pure
 * function: position, health, food, pack and held item as observed; the blocks it lists (anything else
 * reads as not loaded, null); `findBlocks` among those blocks, nearest first; the living entities it
 * lists (as mobs); the game's recipes. Every actuator refuses with guard_failed.
 */
export function worldFromObservation(observed: Observation, options: { kind?: string } = {}): WorldPort {
  const blocks = Object.entries(observed.blocks).map(([key, name]) => {
    const [x, y, z] = key.split(',').map(Number) as [number, number, number];
    return { position: { x, y, z }, name };
  });
  const distance = (p: Vec3Like) =>
    Math.hypot(p.x - observed.position.x, p.y - observed.position.y, p.z - observed.position.z);
  const entities: EntityInfo[] = (observed.entities ?? []).map(({ id, name, position }) => ({
    id,
    name,
    kind: name === 'player' ? 'player' : 'hostile',
    position: { ...position },
  }));
  return {
    kind: options.kind ?? 'observed',
    events: new EventEmitter<WorldEvents>(),
    isConnected: () => true,
    position: () => ({ ...observed.position }),
    health: () => observed.health,
    food: () => observed.food,
    inventory: () => ({ ...observed.inventory }),
    heldItem: () => observed.heldItem,
    blockAt: (position): BlockInfo | null => {
      const name = observed.blocks[blockKey(position)];
      return name === undefined
        ? null
        : {
            name,
            position: { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) },
            diggable: name !== 'bedrock',
          };
    },
    findBlocks: (query: BlockQuery) =>
      blocks
        .filter((block) => query.names.includes(block.name) && distance(block.position) <= query.maxDistance)
        .sort((a, b) => distance(a.position) - distance(b.position))
        .slice(0, query.count)
        .map((block) => block.position),
    entities: (kinds) =>
      entities
        .filter((entity) => !kinds || kinds.includes(entity.kind))
        .map((entity) => ({ ...entity, position: { ...entity.position } })),
    recipe: (item) => recipeFor(item),
    observe: () => Promise.resolve(structuredClone(observed)),
    goto: refuse('goto'),
    stopMovement: () => undefined,
    dig: refuse('dig'),
    place: refuse('place'),
    craft: refuse('craft'),
    equip: refuse('equip'),
    consume: refuse('consume'),
    move: refuse('move'),
    close: () => Promise.resolve(),
  };
}

/** What a guard is given, built from an observation: `guard(guardContext(observation({ inventory })), args)`. */
export function guardContext(observed: Observation): GuardContext {
  return { world: worldFromObservation(observed), observation: observed };
}
