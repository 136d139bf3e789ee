import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock/index.js';
import { ExecutorPolicy } from '../../../src/executor/policy.js';
import { observeEncounter, SafetyMonitor } from '../../../src/executor/safety/index.js';
import { PILLAR_HEIGHT, shelterVerbs } from '../../../src/executor/safety/shelters.js';
import { BUILDING_BLOCKS, chooseBuildingBlock } from '../../../src/kit/building-blocks.js';
import { chooseFood, isFood } from '../../../src/kit/foods.js';
import { HOSTILE_STATS } from '../../../src/world/mob-rules/index.js';
import { SimWorld } from '../../../src/world/sim/index.js';

/** Flat ground (feet at y 0); the bot on a 3-block dirt pillar at 0,0,0 when `perched`; zombies 2 blocks off. */
function field(perched: boolean, inventory: Record<string, number> = {}) {
  const world = SimWorld.create({
    clock: new ManualClock(),
    ground: { radius: 20 },
    inventory,
    ...(perched
      ? { spawn: { x: 0, y: 3, z: 0 }, blocks: [0, 1, 2].map((y) => ({ position: { x: 0, y, z: 0 }, name: 'dirt' })) }
      : {}),
  });
  for (const [x, z] of [
    [2, 0],
    [-2, 1],
    [0, 2],
  ] as const)
    world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: x + 0.5, y: 0, z: z + 0.5 } });
  return { world, monitor: new SafetyMonitor(ExecutorPolicy.parse({}).safety, world) };
}

describe('the encounter as the world shows it', () => {
  it('on the ground the zombies reach the bot; up its pillar they cannot, and the monitor stays quiet', () => {
    const ground = field(false);
    expect(observeEncounter(ground.world, 5).hostiles.map((h) => h.reach)).toEqual(['melee', 'melee', 'melee']);
    expect(ground.monitor.check(0)).toMatchObject({ signal: 'hostile' });
    const pillar = field(true);
    expect(observeEncounter(pillar.world, 5).hostiles.map((h) => h.reach)).toEqual(['none', 'none', 'none']);
    expect(pillar.monitor.check(0)).toBeNull();
    expect(pillar.monitor.walkersBelow()).toHaveLength(3);
  });

  it('up a pillar of 3 the way out drops off its top (no fall damage); up one of 4 or 5 there is none', () => {
    const perched = (height: number) => {
      const pillar = Array.from({ length: height }, (_, y) => ({ position: { x: 0, y, z: 0 }, name: 'dirt' }));
      const world = SimWorld.create({
        clock: new ManualClock(),
        ground: { radius: 20 },
        spawn: { x: 0, y: height, z: 0 },
        blocks: pillar,
      });
      // A skeleton to the east (its bow reaches up a pillar): the way out runs west, off the top.
      world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 6.5, y: 0, z: 0.5 } });
      const seen = observeEncounter(world, 5);
      expect(seen.hostiles.map((h) => h.reach)).toEqual(['bow']);
      return seen.ground.wayOut;
    };
    expect([1, 2, 3, 4, 5].map(perched)).toEqual([true, true, true, false, false]);
  });

  it('reads the ground under the bot for a hole: grass and dirt by hand in 2.4 s, its own cover; none under a pillar', () => {
    expect(observeEncounter(field(false).world, 5).ground.digIn).toEqual({ ms: 2400, yieldsCover: true });
    expect(observeEncounter(field(false, { wooden_shovel: 1 }).world, 5).ground.digIn).toEqual({
      ms: 1250,
      yieldsCover: true,
    });
    // The pillar's column opens to the side: no hole in it.
    expect(observeEncounter(field(true).world, 5).ground.digIn).toBeNull();
  });

  it('reads the weapons in the pack, the food and the building blocks', () => {
    const { world } = field(false, { stone_sword: 1, bread: 3, dirt: 10, cobblestone: 5, sand: 4 });
    const { bot } = observeEncounter(world, 5);
    expect(bot.pack).toEqual(['stone_sword']);
    expect(bot.foods).toEqual(['bread']);
    // A pillar or a wall is one kind: the dirt, not the dirt and the cobblestone; never the sand.
    expect(bot.blocks).toBe(10);
  });

  // The encounter read any edible item as food (minecraft-data's list), rotten flesh and spider eyes among them, so a
  // hurt bot holding the rotten flesh its zombies dropped was sent to eat it first: consume_food eats nothing that
  // poisons unasked. The food it reads is consume_food's own choice, best first, for any pack.
  it('reads as food what consume_food would eat unasked, in its order: never rotten flesh or a spider eye (any pack)', () => {
    const items = ['rotten_flesh', 'spider_eye', 'bread', 'cooked_beef', 'apple', 'beef', 'stone_sword', 'dirt'];
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...items), fc.integer({ min: 0, max: 5 })),
        fc.integer({ min: 0, max: 20 }),
        (inventory, food) => {
          const { world } = field(false, inventory);
          world.setFood(food);
          const { foods } = observeEncounter(world, 5).bot;
          expect(foods[0] ?? null).toBe(chooseFood(inventory, food));
          expect(foods).not.toContain('rotten_flesh');
          expect(foods).not.toContain('spider_eye');
          expect(foods.every((f) => isFood(f) && (inventory[f] ?? 0) > 0)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('counts blocks as the shelters spend them: one kind, of those they build with; logs, planks of two kinds, a crafting table build no pillar', () => {
    const pillar = (inventory: Record<string, number>) => {
      const { world } = field(false, inventory);
      const seen = observeEncounter(world, 5);
      return { blocks: seen.bot.blocks, offered: shelterVerbs(seen, seen.hostiles).includes('pillar_up') };
    };
    expect(pillar({ oak_log: 5 })).toEqual({ blocks: 0, offered: false });
    expect(pillar({ oak_planks: 2, dirt: 1 })).toEqual({ blocks: 2, offered: false });
    expect(pillar({ oak_planks: 2, spruce_planks: 2, crafting_table: 1 })).toEqual({ blocks: 2, offered: false });
    expect(pillar({ oak_planks: 3, dirt: 1 })).toEqual({ blocks: 3, offered: true });
  });

  it("offers a pillar or a wall exactly when the capability's own choice of block holds enough of it (any pack)", () => {
    const items = [...BUILDING_BLOCKS.slice(0, 6), 'oak_log', 'sand', 'crafting_table', 'stone_sword'];
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...items), fc.integer({ min: 0, max: 10 })), (inventory) => {
        const { blocks } = observeEncounter(field(false, inventory).world, 5).bot;
        for (const count of [1, PILLAR_HEIGHT, 8]) {
          const item = chooseBuildingBlock(inventory, count);
          expect(blocks >= count).toBe(item !== null && (inventory[item] ?? 0) >= count);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('what the last observation adds: mob health and the time of day', () => {
  it("a hurt zombie's health comes from the world's truth after a refresh, not its kind's 20", async () => {
    const { world, monitor } = field(false);
    const hurt = world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 1.5, y: 0, z: -1.5 }, health: 7 });
    expect(observeEncounter(world, 5).hostiles.find((h) => h.id === hurt)!.health).toBeNull();
    await monitor.refresh();
    const threats = monitor.check(0)!.assessment!.threats;
    expect(threats.find((h) => h.id === hurt)!.health).toBe(7);
    expect(threats.filter((h) => h.id !== hurt).map((h) => h.health)).toEqual([20, 20, 20]);
  });

  it('a spider is no threat by day (neutral in light) and one by night', () => {
    const world = SimWorld.create({ clock: new ManualClock(), ground: { radius: 20 } });
    world.spawnEntity({ name: 'spider', kind: 'hostile', position: { x: 2.5, y: 0, z: 0.5 } });
    expect(observeEncounter(world, 5, { health: new Map(), timeOfDay: 6000 }).hostiles[0]!.reach).toBe('none');
    expect(observeEncounter(world, 5, { health: new Map(), timeOfDay: 18000 }).hostiles[0]!.reach).toBe('melee');
  });
});

describe('what the world shows of a mob: a creeper swelling, a spider provoked', () => {
  /** A SimWorld on grass at y 4 (feet at 5), the bot at 0,5,0, one mob by the rules beside it. */
  function beside(name: string, timeOfDay: number, x: number) {
    const clock = new ManualClock();
    const world = SimWorld.create({ clock, ground: { top: 4 }, timeOfDay, spawn: { x: 0, y: 5, z: 0 } });
    const id = world.spawnEntity({ name, kind: 'hostile', position: { x: x + 0.5, y: 5, z: 0.5 }, ai: true });
    return { clock, world, id };
  }

  it("a creeper's swell is the world's: unsaid at first, then swelling once it lights its fuse, in the encounter", async () => {
    const { clock, world, id } = beside('creeper', 18_000, 2);
    expect(world.entities().find((e) => e.id === id)!.swelling).toBeUndefined();
    for (let t = 0; t < 5000 && world.entities().find((e) => e.id === id)?.swelling !== true; t += 50)
      await clock.advance(50);
    expect(world.entities().find((e) => e.id === id)!.swelling).toBe(true);
    expect(observeEncounter(world, 5).hostiles[0]).toMatchObject({ id, swelling: true });
    await world.close();
  });

  it('a spider hit by day is aggressive and a threat in the light; one left alone is neither', async () => {
    const day = { health: new Map(), timeOfDay: 6000 };
    const { clock, world, id } = beside('spider', 6000, 2);
    await clock.advance(1000);
    expect(world.entities().find((e) => e.id === id)!.aggressive).toBeUndefined();
    expect(observeEncounter(world, 5, day).hostiles[0]!.reach).toBe('none');
    const hit = world.attack(id);
    await clock.advance(1000);
    await hit;
    await clock.advance(100);
    expect(world.entities().find((e) => e.id === id)!.aggressive).toBe(true);
    expect(observeEncounter(world, 5, day).hostiles[0]!.reach).toBe('melee');
    await world.close();
  });
});

describe('the encounter from a shelter', () => {
  /** The bot at 0,0,0 on flat ground, walled in by stone at feet and head level (and covered when asked). */
  function shelter(covered: boolean) {
    const sides = [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ].flatMap(([x, z]) => [0, 1].map((y) => ({ position: { x: x!, y, z: z! }, name: 'stone' })));
    const roof = covered ? [{ position: { x: 0, y: 2, z: 0 }, name: 'stone' }] : [];
    const world = SimWorld.create({ clock: new ManualClock(), ground: { radius: 20 }, blocks: [...sides, ...roof] });
    for (const [name, x] of [
      ['zombie', 3],
      ['spider', -3],
      ['creeper', 5],
    ] as const)
      world.spawnEntity({ name, kind: 'hostile', position: { x: x + 0.5, y: 0, z: 0.5 } });
    const night = { health: new Map(), timeOfDay: 18_000 };
    return Object.fromEntries(observeEncounter(world, 5, night).hostiles.map((h) => [h.name, h.reach]));
  }

  it('behind a wall a zombie cannot reach the bot, a spider climbs over it, a creeper blows through it', () => {
    expect(shelter(false)).toEqual({ zombie: 'none', spider: 'melee', creeper: 'explosion' });
  });

  it('up a pillar a spider still reaches the bot: it climbs', () => {
    const { world } = field(true);
    world.spawnEntity({ name: 'spider', kind: 'hostile', position: { x: -2.5, y: 0, z: 0.5 } });
    const reach = observeEncounter(world, 5, { health: new Map(), timeOfDay: 18_000 }).hostiles.map((h) => h.reach);
    expect(reach).toEqual(['none', 'none', 'none', 'melee']);
  });

  it("up a pillar a creeper below reaches the bot by its blast while within the blast's reach, and is answered", () => {
    const { world, monitor } = field(true, { dirt: 16 });
    world.spawnEntity({ name: 'creeper', kind: 'hostile', position: { x: 1.5, y: 0, z: -1.5 } });
    const reach = observeEncounter(world, 5).hostiles.map((h) => [h.name, h.reach]);
    expect(reach).toContainEqual(['creeper', 'explosion']);
    expect(reach.filter(([name]) => name === 'zombie').map(([, r]) => r)).toEqual(['none', 'none', 'none']);
    const signal = monitor.check(0);
    expect(signal).toMatchObject({ signal: 'hostile' });
    expect(signal!.assessment!.threats.map((h) => h.name)).toEqual(['creeper']);
  });

  it("a creeper below a pillar is a threat exactly within its blast's reach (twice its power, the wiki's)", () => {
    const blastReach = 2 * HOSTILE_STATS.creeper!.fuse!.power;
    fc.assert(
      fc.property(
        fc.integer({ min: -10, max: 10 }),
        fc.integer({ min: -10, max: 10 }),
        fc.integer({ min: 3, max: 6 }),
        (x, z, height) => {
          fc.pre(Math.abs(x) + Math.abs(z) > 0);
          const world = SimWorld.create({
            clock: new ManualClock(),
            ground: { radius: 12 },
            spawn: { x: 0, y: height, z: 0 },
            blocks: Array.from({ length: height }, (_, y) => ({ position: { x: 0, y, z: 0 }, name: 'dirt' })),
          });
          world.spawnEntity({ name: 'creeper', kind: 'hostile', position: { x: x + 0.5, y: 0, z: z + 0.5 } });
          const [creeper] = observeEncounter(world, 5).hostiles;
          if (!creeper) return; // beyond the encounter's radius
          expect(creeper.reach).toBe(creeper.distance <= blastReach ? 'explosion' : 'none');
        },
      ),
      { numRuns: 60 },
    );
  });

  it('under a closed top the spider cannot reach it either', () => {
    expect(shelter(true)).toEqual({ zombie: 'none', spider: 'none', creeper: 'explosion' });
  });

  it('reads the shelter the bot stands in, and offers no other of the same: a spider at a pillar, a creeper at a hole', () => {
    const pillar = field(true, { dirt: 16 });
    pillar.world.spawnEntity({ name: 'spider', kind: 'hostile', position: { x: -2.5, y: 0, z: 0.5 } });
    expect(observeEncounter(pillar.world, 5).ground).toMatchObject({ shelter: 'pillar_up' });
    const verbs = (monitor: SafetyMonitor) => monitor.threatRemaining()?.responses.map((r) => r.verb);
    // One spider is a fight; no pillar again, even as the last resort, and no flight: it keeps pace with a runner.
    expect(verbs(pillar.monitor)).toEqual(['attack_entity']);
    const hole = SimWorld.create({
      clock: new ManualClock(),
      ground: { radius: 20 },
      inventory: { dirt: 16, wooden_shovel: 1 },
      spawn: { x: 0, y: -3, z: 0 },
      blocks: [-1, -2, -3]
        .map((y) => ({ position: { x: 0, y, z: 0 }, name: 'air' }))
        .concat({
          position: { x: 0, y: -1, z: 0 },
          name: 'dirt',
        }),
    });
    hole.spawnEntity({ name: 'creeper', kind: 'hostile', position: { x: 3.5, y: 0, z: 0.5 } });
    expect(observeEncounter(hole, 5).ground).toMatchObject({ shelter: 'dig_in', headroom: 0 });
    // Shut in with no walk out, a flight would fail at once (no path): the hole is held, nothing is run.
    expect(observeEncounter(hole, 5).ground.wayOut).toBe(false);
    expect(verbs(new SafetyMonitor(ExecutorPolicy.parse({}).safety, hole))).toBeUndefined();
  });
});

describe('beyond the encounter', () => {
  const open = (health = 20) => SimWorld.create({ clock: new ManualClock(), ground: { radius: 30 }, health });

  it('a zombie coming from 20 blocks is seen with the seconds until it arrives, not as a threat; a skeleton there is seen for a flight only', () => {
    const world = open();
    world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 20.5, y: 0, z: 0.5 } });
    world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 0.5, y: 0, z: 20.5 } });
    world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 0.5, y: 0, z: 45.5 } });
    const [zombie, ...others] = observeEncounter(world, 5).hostiles;
    // The skeleton 20 blocks off is where a flight may end (assess's flightFrom weighs it); the one 45 off is not seen.
    expect(others).toEqual([expect.objectContaining({ name: 'skeleton', reach: 'none' })]);
    expect(others[0]!.arrivesInS).toBeUndefined();
    expect(zombie).toMatchObject({ name: 'zombie', reach: 'none' });
    // 20 blocks less its reach (0.3 + 0.83 + 0.3) at a zombie's 2.07 blocks/s (HOSTILE_STATS).
    const reach = 0.3 + Math.sqrt(2.04) - 0.6 + 0.3;
    expect(zombie!.arrivesInS).toBeCloseTo((20 - reach) / HOSTILE_STATS.zombie!.speed, 1);
  });

  it('low health sends the bot up no pillar while a skeleton is within its bow range, even behind a wall', () => {
    const hidden = open(4);
    hidden.fill({ x: 3, y: 0, z: -2 }, { x: 3, y: 3, z: 2 }, 'stone');
    hidden.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 8.5, y: 0, z: 0.5 } });
    const verbs = (world: SimWorld) =>
      new SafetyMonitor(ExecutorPolicy.parse({}).safety, world).check(0)?.responses.map((r) => r.verb);
    expect(verbs(hidden)).toEqual(['consume_food', 'dig_in']);
    expect(verbs(open(4))).toEqual(['consume_food', 'pillar_up', 'dig_in']);
  });
});
