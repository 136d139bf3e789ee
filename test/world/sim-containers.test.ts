import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { WorldError } from '../../src/contracts/world.js';
import { fuelFor, SMELT_TICKS_PER_ITEM } from '../../src/world/smelting.js';
import { SimWorld, settle, track } from '../../src/world/sim/index.js';

const FURNACE = { x: 1, y: 0, z: 0 };
const CHEST = { x: 0, y: 0, z: 1 };
const MS_PER_ITEM = SMELT_TICKS_PER_ITEM * 50;

function world(inventory: Record<string, number>) {
  const clock = new ManualClock();
  const sim = SimWorld.create({ clock, inventory });
  sim.setBlock(FURNACE, 'furnace').setBlock(CHEST, 'chest');
  return { clock, sim };
}

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof WorldError ? error.code : String(error)),
  );

describe('SimWorld furnace', () => {
  it('smelts 10 s an item, burns whole fuel items, and hands over the output', async () => {
    const { clock, sim } = world({ raw_iron: 3, coal: 2 });
    const startedAt = clock.now();
    expect((await settle(clock, sim.smelt(FURNACE, 'raw_iron', 3, 'coal'))).state).toBe('ok');
    expect(sim.inventory()).toEqual({ iron_ingot: 3, coal: 1 });
    expect(clock.now() - startedAt).toBeGreaterThanOrEqual(3 * MS_PER_ITEM);
    expect(clock.now() - startedAt).toBeLessThan(3 * MS_PER_ITEM + 2000);
    const seen = await sim.observe({ containers: [FURNACE] });
    expect(seen.containers).toEqual({ '1,0,0': {} });
  });

  it('refuses what a furnace does not take, a non-fuel, too little fuel, and a block that is no furnace, before anything moves', async () => {
    const { sim } = world({ raw_iron: 20, dirt: 5, oak_planks: 1 });
    expect(await code(sim.smelt(FURNACE, 'dirt', 1, 'oak_planks'))).toBe('guard_failed');
    expect(await code(sim.smelt(FURNACE, 'raw_iron', 1, 'dirt'))).toBe('guard_failed');
    expect(await code(sim.smelt(FURNACE, 'raw_iron', 2, 'oak_planks'))).toBe('precondition_missing');
    expect(await code(sim.smelt(CHEST, 'raw_iron', 1, 'oak_planks'))).toBe('precondition_missing');
    expect(sim.inventory()).toEqual({ raw_iron: 20, dirt: 5, oak_planks: 1 });
  });

  it('keeps cooking what an aborted smelt loaded, as a real furnace does', async () => {
    const { clock, sim } = world({ raw_iron: 2, coal: 1 });
    const abort = new AbortController();
    const run = track(sim.smelt(FURNACE, 'raw_iron', 2, 'coal', { signal: abort.signal }));
    await clock.advance(1000);
    abort.abort();
    await clock.advance(0);
    expect(run.outcome).toMatchObject({ state: 'rejected' });
    expect(sim.inventory()).toEqual({});
    await clock.advance(2 * MS_PER_ITEM);
    expect((await sim.observe({ containers: [FURNACE] })).containers).toEqual({ '1,0,0': { iron_ingot: 2 } });
  });

  it('property: any input count and fuel ends with exactly that many outputs and the fuel the rules burn', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 16 }),
        fc.constantFrom('coal', 'oak_planks', 'oak_log', 'stick'),
        async (count, fuel) => {
          const burnt = fuelFor(fuel, count);
          const { clock, sim } = world({ cobblestone: count, [fuel]: burnt + 1 });
          expect((await settle(clock, sim.smelt(FURNACE, 'cobblestone', count, fuel), 20 * MS_PER_ITEM)).state).toBe(
            'ok',
          );
          expect(sim.inventory()).toEqual({ stone: count, [fuel]: 1 });
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('SimWorld chest', () => {
  it('deposit and withdraw move items between the pack and the chest, as observe() shows', async () => {
    const { clock, sim } = world({ cobblestone: 10 });
    await settle(clock, sim.deposit(CHEST, 'cobblestone', 7));
    expect(sim.inventory()).toEqual({ cobblestone: 3 });
    expect((await sim.observe({ containers: [CHEST, FURNACE, { x: 5, y: 0, z: 5 }] })).containers).toEqual({
      '0,0,1': { cobblestone: 7 },
      '1,0,0': {},
      '5,0,5': null,
    });
    await settle(clock, sim.withdraw(CHEST, 'cobblestone', 5));
    expect(sim.inventory()).toEqual({ cobblestone: 8 });
    expect((await sim.observe({ containers: [CHEST] })).containers).toEqual({ '0,0,1': { cobblestone: 2 } });
  });

  it('refuses taking more than the chest holds, storing more than the pack holds, and a chest out of reach or full', async () => {
    const { clock, sim } = world({ cobblestone: 64 * 28 });
    expect(await code(sim.withdraw(CHEST, 'cobblestone', 1))).toBe('precondition_missing');
    expect(await code(sim.deposit(CHEST, 'cobblestone', 64 * 28 + 1))).toBe('precondition_missing');
    expect(await settle(clock, sim.deposit(CHEST, 'cobblestone', 64 * 28))).toMatchObject({
      state: 'rejected',
      code: 'guard_failed',
    });
    sim.setBlock({ x: 9, y: 0, z: 0 }, 'chest');
    expect(await code(sim.deposit({ x: 9, y: 0, z: 0 }, 'cobblestone', 1))).toBe('precondition_missing');
  });
});
