import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { BodyPart } from '../../src/contracts/world.js';
import { blastDamage } from '../../src/world/mob-rules/index.js';
import { SimWorld } from '../../src/world/sim/index.js';

// SimWorld's side of the combat rules (src/world/mob-rules/): each number is the Minecraft Wiki's.
const LEATHER: [string, BodyPart][] = [
  ['leather_helmet', 'head'],
  ['leather_chestplate', 'torso'],
  ['leather_leggings', 'legs'],
  ['leather_boots', 'feet'],
];

async function nightWorld(clock: ManualClock, wear: [string, BodyPart][]) {
  const world = SimWorld.create({
    clock,
    ground: { top: 4 },
    timeOfDay: 18_000,
    spawn: { x: 0, y: 5, z: 0 },
    inventory: Object.fromEntries(wear.map(([item]) => [item, 1])),
  });
  for (const [item, part] of wear) {
    const worn = world.equip(item, part);
    await clock.advance(1000);
    await worn;
  }
  return world;
}

/** Advances until the bot is first hurt; the health it has left. */
async function firstHurt(world: SimWorld, clock: ManualClock): Promise<number> {
  for (let t = 0; t < 20_000 && world.health() === 20; t += 50) await clock.advance(50);
  return world.health();
}

describe('SimWorld: armour against mobs', () => {
  it("a zombie's 3 takes 3 off a bare bot and 2.34 off one in full leather (7 points: 3 × (1 − 5.5 / 25))", async () => {
    for (const [wear, left] of [
      [[], 17],
      [LEATHER, 20 - 2.34],
    ] as const) {
      const clock = new ManualClock();
      const world = await nightWorld(clock, [...wear]);
      world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 1.5, y: 5, z: 0.5 }, ai: true });
      expect(await firstHurt(world, clock)).toBeCloseTo(left, 10);
      await world.close();
    }
  });
});

describe('SimWorld: a creeper', () => {
  it('walks up, lights its fuse within 3 blocks and blows up: the bot loses what its distance says, the ground breaks', async () => {
    const clock = new ManualClock();
    const world = await nightWorld(clock, []);
    world.spawnEntity({ name: 'creeper', kind: 'hostile', position: { x: 6.5, y: 5, z: 0.5 }, ai: true });
    let last = world.entities()[0]!.position;
    for (let t = 0; t < 20_000 && world.health() === 20; t += 50) {
      last = world.entities().find((e) => e.name === 'creeper')?.position ?? last;
      await clock.advance(50);
    }
    const gap = Math.hypot(last.x - world.position().x, last.y - world.position().y, last.z - world.position().z);
    expect(gap).toBeLessThan(3);
    expect(20 - world.health()).toBeCloseTo(blastDamage(3, gap, 1), 10);
    expect(world.entities().filter((e) => e.name === 'creeper')).toEqual([]);
    expect(world.blockAt({ x: Math.floor(last.x), y: 4, z: Math.floor(last.z) })?.name).toBe('air');
    await world.close();
  });
});
