import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadMineflayer } from '../../src/world/mineflayer/load-mineflayer.js';

/*
 * Issue 34, §2: mineflayer built an Entity class per bot, and a worker's reads of many bots' entities went megamorphic
 * over them. Once mineflayer is loaded, the bots of a version share one class; a registry still gets a class of its own.
 */

const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer'));
type EntityLoader = (registryOrVersion: unknown) => new (id: number) => { id: number; position: { x: number } };

describe('prismarine-entity’s classes, once mineflayer is loaded', () => {
  it('are one per version’s name, as mineflayer asks for them bot by bot, and one per registry as before', () => {
    loadMineflayer();
    const load = fromMineflayer('prismarine-entity') as EntityLoader;
    const Entity = load('1.21.4');
    expect(load('1.21.4')).toBe(Entity);
    expect(load('1.20.4')).not.toBe(Entity);
    const entity = new Entity(7);
    expect([entity.id, entity.position.x]).toEqual([7, 0]);
    const registry = (fromMineflayer('prismarine-registry') as (version: string) => object)('1.21.4');
    expect(load(registry)).not.toBe(load(registry));
  });
});
