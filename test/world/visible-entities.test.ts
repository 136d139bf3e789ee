import { createRequire } from 'node:module';
import fc from 'fast-check';
import type { Bot } from 'mineflayer';
import { describe, expect, it } from 'vitest';
import type { EntityKind } from '../../src/contracts/world.js';
import { loadMineflayer } from '../../src/world/mineflayer/load-mineflayer.js';
import { visibleEntities } from '../../src/world/mineflayer/observe.js';

/*
 * Issue 34, §2: the safety monitor looks at the entities every tick of every bot's step, and in a crowd a bot sees
 * every other bot. Asked for some kinds, a mineflayer bot's world lists those, as the whole list filtered, and builds
 * nothing for the others (their position is never read).
 */

const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer'));
type MineflayerEntity = Bot['entity'];
type EntityClass = new (id: number) => MineflayerEntity;

/** mineflayer's own entity types and names, as a 1.21.4 server's spawns give them, with the kind each should read as. */
const SPAWNS = [
  { type: 'player', name: 'player', kind: 'player' },
  { type: 'hostile', name: 'zombie', kind: 'hostile' },
  { type: 'animal', name: 'cow', kind: 'passive' },
  { type: 'object', name: 'item', kind: 'item' },
  { type: 'object', name: 'arrow', kind: 'other' },
] as const;

const KINDS: EntityKind[] = ['hostile', 'passive', 'player', 'item', 'other'];

function botSeeing(spawns: { spawn: number; x: number }[], asked: ReadonlySet<EntityKind>): Bot {
  loadMineflayer();
  const Entity = (fromMineflayer('prismarine-entity') as (version: string) => EntityClass)('1.21.4');
  const self = new Entity(0);
  Object.assign(self, { type: 'player', name: 'player' });
  const entities: Record<number, MineflayerEntity> = { 0: self };
  spawns.forEach(({ spawn, x }, i) => {
    const { type, name, kind } = SPAWNS[spawn]!;
    const entity = new Entity(i + 1);
    Object.assign(entity, { type, name });
    entity.position.x = x;
    if (!asked.has(kind)) {
      // What was not asked for must not be built: reading where it stands is the first thing building it does.
      Object.defineProperty(entity, 'position', {
        get: () => {
          throw new Error(`the ${name} was built, though no ${kind} was asked for`);
        },
      });
    }
    entities[entity.id] = entity;
  });
  return { entity: self, entities } as unknown as Bot;
}

describe('a mineflayer bot’s entities, by kind', () => {
  it('are those of the kinds asked, as the whole list filtered, the others never built', () => {
    const scene = fc.record({
      spawns: fc.array(
        fc.record({ spawn: fc.integer({ min: 0, max: SPAWNS.length - 1 }), x: fc.integer({ min: -40, max: 40 }) }),
        { maxLength: 30 },
      ),
      kinds: fc.subarray(KINDS, { minLength: 1 }),
    });
    fc.assert(
      fc.property(scene, ({ spawns, kinds }) => {
        const asked = new Set(kinds);
        const whole = visibleEntities(botSeeing(spawns, new Set(KINDS)));
        const listed = visibleEntities(botSeeing(spawns, asked), kinds);
        expect(listed).toEqual(whole.filter((e) => asked.has(e.kind)));
        expect(whole.map((e) => e.kind)).toEqual(spawns.map(({ spawn }) => SPAWNS[spawn]!.kind));
      }),
    );
  });
});
