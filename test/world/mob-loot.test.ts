import fc from 'fast-check';
import minecraftData from 'minecraft-data';
import { describe, expect, it } from 'vitest';
import { MOB_LOOT, mobLoot } from '../../src/world/mob-rules/index.js';
import { mulberry32 } from '../../src/random.js';
import { MINECRAFT_VERSION } from '../../src/world/recipes.js';

// Each range is the Minecraft Wiki's (Drops, Cow, Pig, Sheep, Chicken, Zombie, Skeleton, Spider, Creeper): a drift fails here.
const VANILLA: Record<string, Record<string, [number, number]>> = {
  cow: { beef: [1, 3], leather: [0, 2] },
  pig: { porkchop: [1, 3] },
  sheep: { mutton: [1, 2], white_wool: [1, 1] },
  chicken: { chicken: [1, 1], feather: [0, 2] },
  zombie: { rotten_flesh: [0, 2] },
  skeleton: { bone: [0, 2], arrow: [0, 2] },
  spider: { string: [0, 2], spider_eye: [0, 1] },
  creeper: { gunpowder: [0, 2] },
};

/** Every count `draws` kills of `mob` dropped of each item (0 where a kill dropped none). */
function countsOver(mob: string, draws: number, seed: number, byPlayer = true): Map<string, number[]> {
  const random = mulberry32(seed);
  const counts = new Map<string, number[]>();
  for (let n = 0; n < draws; n++) {
    const dropped = new Map(mobLoot(mob, random, byPlayer).map((stack) => [stack.item, stack.count]));
    for (const item of Object.keys(VANILLA[mob]!))
      counts.set(item, [...(counts.get(item) ?? []), dropped.get(item) ?? 0]);
  }
  return counts;
}

describe('mob loot: what a killed mob drops', () => {
  it("drops each item over exactly vanilla's range: every count in it is drawn, none outside it", () => {
    for (const [mob, items] of Object.entries(VANILLA)) {
      const counts = countsOver(mob, 600, 7);
      for (const [item, [min, max]] of Object.entries(items)) {
        const seen = [...new Set(counts.get(item))].sort();
        const expected = Array.from({ length: max - min + 1 }, (_, i) => min + i);
        expect([mob, item, seen]).toEqual([mob, item, expected]);
      }
    }
  });

  it('names nothing but these drops, and only items the game has', () => {
    const items = minecraftData(MINECRAFT_VERSION).itemsByName;
    expect(Object.keys(MOB_LOOT).sort()).toEqual(Object.keys(VANILLA).sort());
    for (const [mob, entries] of Object.entries(MOB_LOOT)) {
      expect(entries.map((e) => e.item).sort()).toEqual(Object.keys(VANILLA[mob]!).sort());
      for (const entry of entries) expect(items[entry.item], entry.item).toBeDefined();
    }
  });

  it("draws uniformly: a cow's beef is 1, 2 or 3 a third of the time each; a spider's eye drops on a third of a player's kills", () => {
    const beef = countsOver('cow', 3000, 11).get('beef')!;
    for (const n of [1, 2, 3]) expect(Math.abs(beef.filter((c) => c === n).length / 3000 - 1 / 3)).toBeLessThan(0.04);
    const eyes = countsOver('spider', 3000, 12).get('spider_eye')!;
    expect(Math.abs(eyes.filter((c) => c === 1).length / 3000 - 1 / 3)).toBeLessThan(0.04);
  });

  it("a spider's eye needs a player's kill; a mob the tables do not name drops nothing", () => {
    expect(
      countsOver('spider', 300, 3, false)
        .get('spider_eye')!
        .every((c) => c === 0),
    ).toBe(true);
    expect(mobLoot('bat', mulberry32(1), true)).toEqual([]);
  });

  it('the same seed drops the same loot, and no stack is ever empty', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(VANILLA)), fc.integer(), (mob, seed) => {
        const first = mobLoot(mob, mulberry32(seed), true);
        expect(mobLoot(mob, mulberry32(seed), true)).toEqual(first);
        for (const stack of first) expect(stack.count).toBeGreaterThan(0);
      }),
    );
  });
});
