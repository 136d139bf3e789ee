import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import activateBlock from '../../capabilities/activate_block/index.js';
import attackEntity from '../../capabilities/attack_entity/index.js';
import followEntity from '../../capabilities/follow_entity/index.js';
import { createDefaultRegistry } from '../../capabilities/index.js';
import smeltItem from '../../capabilities/smelt_item/index.js';
import storeItems from '../../capabilities/store_items/index.js';
import { checkCapability } from '../../src/testing/index.js';
import { SimWorld } from '../../src/world/sim/index.js';

// Every generated run, under generated faults (hangs, throws, actuators that report success and change
// nothing, …), keeps the executor's invariants, and ends ok only when the world holds the effect.
describe('checkCapability on the verbs of the tech tree', () => {
  it('store_items: ok only with the items in the chest it chose', async () => {
    const chest = { x: 3, y: 0, z: 1 };
    const args = fc
      .record({
        item: fc.constant('cobblestone'),
        count: fc.integer({ min: 1, max: 30 }),
        chest: fc.option(fc.constant(chest), { nil: undefined }),
      })
      .map((a) => storeItems.inputSchema.parse(a));
    const report = await checkCapability(storeItems, {
      world: (_args, clock) => SimWorld.create({ clock, inventory: { cobblestone: 20 } }).setBlock(chest, 'chest'),
      args,
      effect: ({ count }, _before, world) => {
        const held = world.inventory().cobblestone ?? 0;
        return held <= 20 - count ? null : `the pack still holds ${held} cobblestone`;
      },
      registry: createDefaultRegistry(),
      numRuns: 40,
      seed: 5,
    });
    expect(report.ok).toBeGreaterThan(0);
  });

  it('attack_entity: ok only when the zombie is dead', async () => {
    const spot = fc.record({ x: fc.integer({ min: 2, max: 8 }), z: fc.integer({ min: -5, max: 5 }) });
    const cases = fc.record({ spot, target: fc.constant({ name: 'zombie' }) });
    const placed = new WeakMap<object, { x: number; z: number }>();
    const report = await checkCapability(attackEntity, {
      args: cases.map(({ spot: at, target }) => {
        const parsed = attackEntity.inputSchema.parse({ target });
        placed.set(parsed, at);
        return parsed;
      }),
      world: (args, clock) => {
        const world = SimWorld.create({ clock });
        const at = placed.get(args)!;
        world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: at.x + 0.5, y: 0, z: at.z + 0.5 } });
        return world;
      },
      effect: (_args, _before, world) =>
        world.entities().some((e) => e.name === 'zombie') ? 'the zombie is alive' : null,
      registry: createDefaultRegistry(),
      numRuns: 30,
      seed: 9,
    });
    expect(report.ok).toBeGreaterThan(0);
  });

  it('smelt_item and follow_entity keep the invariants under generated faults', async () => {
    const smelt = fc
      .integer({ min: 1, max: 4 })
      .map((count) => smeltItem.inputSchema.parse({ item: 'iron_ingot', count, fuel: 'coal' }));
    const smelted = await checkCapability(smeltItem, {
      world: (_args, clock) =>
        SimWorld.create({ clock, inventory: { raw_iron: 4, coal: 2 } }).setBlock({ x: 2, y: 0, z: 0 }, 'furnace'),
      args: smelt,
      effect: ({ count }, _before, world) =>
        (world.inventory().iron_ingot ?? 0) >= count
          ? null
          : `the pack holds ${world.inventory().iron_ingot ?? 0} iron_ingot`,
      registry: createDefaultRegistry(),
      numRuns: 25,
      seed: 2,
    });
    expect(smelted.ok).toBeGreaterThan(0);
    const followed = await checkCapability(followEntity, {
      world: (_args, clock) => {
        const world = SimWorld.create({ clock });
        world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 6.5, y: 0, z: 2.5 } });
        return world;
      },
      args: fc
        .integer({ min: 1_000, max: 20_000 })
        .map((forMs) => followEntity.inputSchema.parse({ target: { name: 'cow' }, forMs })),
      registry: createDefaultRegistry(),
      numRuns: 25,
      seed: 4,
    });
    expect(followed.ok).toBeGreaterThan(0);
  });

  it('activate_block: ok only with the door or lever in the state asked (or toggled from shut, when none is asked)', async () => {
    const door = {
      name: 'oak_door',
      cells: [
        { x: 5, y: 0, z: 0 },
        { x: 5, y: 1, z: 0 },
      ],
      states: ['open', 'closed'] as const,
    };
    const lever = { name: 'lever', cells: [{ x: -3, y: 0, z: 2 }], states: ['on', 'off'] as const };
    const args = fc
      .constantFrom(door, lever)
      .chain((block) =>
        fc.record({
          at: fc.constantFrom(...block.cells),
          state: fc.option(fc.constantFrom(...block.states), { nil: undefined }),
        }),
      )
      .map(({ at, state }) => activateBlock.inputSchema.parse({ ...at, ...(state ? { state } : {}) }));
    const report = await checkCapability(activateBlock, {
      world: (_args, clock) =>
        SimWorld.create({
          clock,
          blocks: [...door.cells, ...lever.cells].map((cell, i) => ({
            position: cell,
            name: i < 2 ? door.name : lever.name,
          })),
        }),
      args,
      effect: (a, _before, world) => {
        const state = world.blockState(a);
        const on = state.properties.open ?? state.properties.powered;
        const wanted = a.state === undefined || a.state === 'open' || a.state === 'on';
        return on === wanted ? null : `the ${state.name} at ${a.x},${a.y},${a.z} is ${on ? 'open/on' : 'shut/off'}`;
      },
      registry: createDefaultRegistry(),
      numRuns: 40,
      seed: 11,
    });
    expect(report.ok).toBeGreaterThan(0);
  });
});
