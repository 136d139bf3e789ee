import { EventEmitter } from 'node:events';
import fc from 'fast-check';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { entityTrackingPlugin } from '../../src/world/embedded/plugins/entity-tracking.js';
import type { SquidPlayer, SquidServer } from '../../src/world/embedded/squid-types.js';

/*
 * "bots that join at the same moment each see every other one" (embedded-fleet.test.ts) failed once under load. This
 * plays the tracker's side of such joins in every order: each player goes through flying-squid's login steps (its
 * entity made, its position read, a first move from its client, updateAndSpawn, 'spawned', a later move) interleaved
 * with the others' as fast-check picks. Whatever the order, every pair of spawned players must have been sent each
 * other and not told since that the other is gone.
 */

const SPAWN = new Vec3(0.5, 5, 0.5);
const PLAYERS = 6;

interface FakePlayer extends EventEmitter {
  id: number;
  type: 'player';
  world: object;
  position: Vec3;
  updateAndSpawn(): void;
  spawnEntity(entity: { id: number }): void;
  _client: { write(name: string, params: { entityId?: number }): void };
  despawnEntities(entities: { id: number }[]): void;
}

/**
 * A server with the tracking plugin and players whose clients keep the set of entity ids they were sent, by their own
 * spawnEntity or by the fan-out (`_writeArray`), as flying-squid's write a spawn packet.
 */
function tracked() {
  const entities: Record<number, FakePlayer> = {};
  const serv = Object.assign(new EventEmitter(), {
    registry: { entities: {} },
    entities,
    destroyEntity: () => {},
    _writeArray: (name: string, params: { entityId?: number }, to: FakePlayer[]) =>
      to.forEach((player) => player._client.write(name, params)),
  });
  const plugin = entityTrackingPlugin({ viewDistance: 4 });
  plugin.server!(serv as unknown as SquidServer, {});
  const world = {};
  const players = Array.from({ length: PLAYERS }, (_, i) => {
    const client = new Set<number>();
    const player: FakePlayer = Object.assign(new EventEmitter(), {
      id: i + 1,
      type: 'player' as const,
      world,
      position: new Vec3(0, 0, 0),
      updateAndSpawn: () => {},
      _client: {
        write: (name: string, params: { entityId?: number }) => {
          if (name === 'spawn_entity') client.add(params.entityId!);
        },
      },
      spawnEntity: (entity: { id: number }) => player._client.write('spawn_entity', { entityId: entity.id }),
      despawnEntities: (entities: { id: number }[]) => entities.forEach((entity) => client.delete(entity.id)),
    });
    entities[player.id] = player;
    return { player, client };
  });
  const join = (player: FakePlayer) => {
    serv.emit('newEntity', player);
    plugin.player!(player as unknown as SquidPlayer, serv as unknown as SquidServer);
  };
  return { players, join };
}

const step = fc.double({ min: -1.5, max: 1.5, noNaN: true });

describe('entity tracking of players joining together', () => {
  it('every two spawned players were sent each other, in whatever order their logins interleave', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: PLAYERS - 1 }), step, step), { minLength: 20, maxLength: 60 }),
        (turns) => {
          const { players, join } = tracked();
          const done = players.map(() => 0);
          const moveBy = (player: FakePlayer, dx: number, dz: number) => {
            player.position = player.position.offset(dx, 0, dz);
            player.emit('move_done');
          };
          for (const [i, dx, dz] of turns) {
            const { player } = players[i]!;
            const login = [
              () => join(player),
              () => (player.position = SPAWN.clone()),
              () => moveBy(player, dx, dz),
              () => player.updateAndSpawn(),
              () => player.emit('spawned'),
              () => moveBy(player, dx, dz),
            ];
            login[done[i]!]?.();
            done[i]!++;
          }
          const spawned = players.filter((_, i) => done[i]! >= 5);
          const unsent = spawned.flatMap((watcher) =>
            spawned
              .filter((other) => other !== watcher && !watcher.client.has(other.player.id))
              .map((other) => `${watcher.player.id} was not sent ${other.player.id}`),
          );
          expect(unsent).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });
});
