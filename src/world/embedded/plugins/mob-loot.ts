import { Vec3 } from 'vec3';
import type { Vec3Like } from '../../../contracts/world.js';
import { deriveSeed, mulberry32 } from '../../../random.js';
import { mobLoot } from '../../mob-rules/index.js';
import type { SquidServer } from '../squid-types.js';

type SpawnObject = (type: number, world: unknown, position: Vec3, options: object) => void;
/** Vanilla's pickup delay for a drop (ItemEntity: 10 ticks), and how long it lies before it vanishes (as a dig's). */
const DROP_PICKUP_MS = 500;
const DROP_DESPAWN_MS = 5 * 60 * 1000;

/**
 * Spawns a stack of `item` lying at the middle of the cell `at` is in, as flying-squid spawns a dig's drop: an item
 * entity every client in range is shown (drop-metadata.ts tells them what it holds), picked up by a player who walks
 * over it.
 */
export function spawnDrop(serv: SquidServer, at: Vec3Like, item: string, count: number): void {
  const spawnObject = (serv as unknown as { spawnObject: SpawnObject }).spawnObject;
  const position = new Vec3(Math.floor(at.x) + 0.5, Math.floor(at.y), Math.floor(at.z) + 0.5);
  spawnObject(serv.registry.entitiesByName.item!.id, serv.overworld, position, {
    itemId: serv.registry.itemsByName[item]!.id,
    itemCount: count,
    pickupTime: DROP_PICKUP_MS,
    deathTime: DROP_DESPAWN_MS,
  });
}

/**
 * A killed mob's loot on the embedded server (flying-squid drops nothing when a mob dies): what the shared loot rules
 * (mob-rules/loot.ts) draw for it lies where it died. Drawn from a stream seeded per world, as SimWorld's.
 */
export function mobLootDropper(serv: SquidServer, seed: number) {
  const random = mulberry32(deriveSeed(seed, 'loot'));
  return {
    /** `mob` has just died where it stands; `byPlayer`: a player's blow killed it. */
    died(mob: { name?: string; position: Vec3Like }, byPlayer: boolean): void {
      for (const stack of mobLoot(mob.name ?? 'unknown', random, byPlayer))
        spawnDrop(serv, mob.position, stack.item, stack.count);
    },
  };
}
