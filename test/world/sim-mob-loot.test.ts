import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { deriveSeed, mulberry32 } from '../../src/random.js';
import { mobLoot } from '../../src/world/mob-rules/index.js';
import { SimWorld } from '../../src/world/sim/index.js';

/** A SimWorld of `seed` with the bot at (0, 5, 0) holding an iron sword, and a still `mob` 2 blocks off. */
async function withMob(seed: number, mob: string) {
  const clock = new ManualClock();
  const world = SimWorld.create({
    clock,
    seed,
    ground: { top: 4 },
    spawn: { x: 0, y: 5, z: 0 },
    inventory: { iron_sword: 1 },
  });
  const equipped = world.equip('iron_sword', 'hand');
  await clock.advance(1000);
  await equipped;
  const id = world.spawnEntity({ name: mob, kind: 'passive', position: { x: 2.5, y: 5, z: 0.5 } });
  return { world, clock, id };
}

/** Swings at `id` until it is dead (a still mob against a wall-less flat: walked up to after each push). */
async function kill(world: SimWorld, clock: ManualClock, id: number): Promise<void> {
  for (let swing = 0; swing < 10 && world.entities().some((e) => e.id === id); swing++) {
    const mob = world.entities().find((e) => e.id === id)!;
    const near = world.goto({
      kind: 'near',
      x: Math.floor(mob.position.x),
      y: 5,
      z: Math.floor(mob.position.z),
      range: 1,
    });
    await clock.advance(5000);
    await near;
    const hit = world.attack(id);
    await clock.advance(1000);
    await hit;
  }
}

const dropsOf = (world: SimWorld) =>
  world
    .entities()
    .filter((e) => e.kind === 'item')
    .map((e) => ({ item: e.item!.name, count: e.item!.count }));

describe('SimWorld: a killed mob drops its loot', () => {
  it("a cow the bot kills drops what the shared loot rules draw from the world's loot stream, where it died", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 ** 31 - 1 }), async (seed) => {
        const { world, clock, id } = await withMob(seed, 'cow');
        await kill(world, clock, id);
        expect(world.entities().some((e) => e.id === id)).toBe(false);
        expect(dropsOf(world)).toEqual(mobLoot('cow', mulberry32(deriveSeed(seed, 'loot')), true));
        expect(dropsOf(world).find((d) => d.item === 'beef')!.count).toBeGreaterThanOrEqual(1);
        await world.close();
      }),
      { numRuns: 20 },
    );
  });

  it('the bot walks over the beef and holds it', async () => {
    const { world, clock, id } = await withMob(5, 'cow');
    await kill(world, clock, id);
    const beef = world.entities().find((e) => e.item?.name === 'beef')!;
    const walked = world.goto({ kind: 'block', x: Math.floor(beef.position.x), y: 5, z: Math.floor(beef.position.z) });
    await clock.advance(5000);
    await walked;
    expect((await world.observe({})).inventory.beef).toBe(beef.item!.count);
    await world.close();
  });
});
