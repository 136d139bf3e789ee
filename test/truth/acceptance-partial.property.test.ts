import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import buildStructure from '../../capabilities/build_structure/index.js';
import collectDrops from '../../capabilities/collect_drops/index.js';
import consumeFood from '../../capabilities/consume_food/index.js';
import craftItem from '../../capabilities/craft_item/index.js';
import digBlock from '../../capabilities/dig_block/index.js';
import equip from '../../capabilities/equip/index.js';
import flee from '../../capabilities/flee/index.js';
import navigate from '../../capabilities/navigate/index.js';
import pillarUp from '../../capabilities/pillar_up/index.js';
import placeBlock from '../../capabilities/place_block/index.js';
import { plannedBlocks } from '../../capabilities/build_structure/plan.js';
import { blockKey, type DroppedItem, type Observation, type Vec3Like } from '../../src/index.js';
import { arbitraryFor, judgeStep, observation } from '../../src/testing/index.js';

/*
 * For every capability: a world where the step's effect, as its arguments
 * asked, is fully there passes acceptance; a world where it is only partly
 * there (one item short, a neighbouring cell changed instead, the bot short
 * of the goal, one drop left on the ground) fails it. The partial worlds are
 * built from the arguments, not from the capability's own expectations, so a
 * capability that checked "something changed" would pass them and fail here.
 */

const RUNS = { numRuns: 60, seed: 7 };
const item = fc.constantFrom('oak_log', 'stick', 'cobblestone', 'dirt', 'bread', 'stone_axe');
const inventory = fc.dictionary(item, fc.integer({ min: 1, max: 32 }), { maxKeys: 4 });
const point = fc.record({
  x: fc.integer({ min: -50, max: 50 }),
  y: fc.integer({ min: -5, max: 60 }),
  z: fc.integer({ min: -50, max: 50 }),
});
const centre = (p: Vec3Like): Vec3Like => ({ x: p.x + 0.5, y: p.y, z: p.z + 0.5 });
const east = (p: Vec3Like): Vec3Like => ({ x: p.x + 1, y: p.y, z: p.z });
const with_ = (o: Observation, patch: Partial<Observation>): Observation => ({ ...o, ...patch });

describe('acceptance checks what the step asked, for every capability', () => {
  it('craft_item: one short of the count asked fails, the count passes', () => {
    fc.assert(
      fc.property(arbitraryFor(craftItem.inputSchema), inventory, (raw, pack) => {
        const args = craftItem.inputSchema.parse(raw);
        const pre = observation({ inventory: pack });
        const before = pack[args.item] ?? 0;
        // Something else grew a lot: still not the item asked for.
        expect(
          judgeStep(
            craftItem,
            pre,
            observation({ inventory: { ...pack, [args.item]: before + args.count - 1, dirt: 99 } }),
            args,
          ).ok,
        ).toBe(false);
        expect(
          judgeStep(craftItem, pre, observation({ inventory: { ...pack, [args.item]: before + args.count } }), args).ok,
        ).toBe(true);
      }),
      RUNS,
    );
  });

  it('dig_block and place_block: the neighbouring cell changed instead fails; the cell asked passes', () => {
    fc.assert(
      fc.property(arbitraryFor(digBlock.inputSchema), arbitraryFor(placeBlock.inputSchema), (rawDig, rawPlace) => {
        const dig = digBlock.inputSchema.parse(rawDig);
        const here = blockKey(dig.position);
        const next = blockKey(east(dig.position));
        const pre = observation({ blocks: { [here]: 'stone', [next]: 'stone' } });
        expect(judgeStep(digBlock, pre, observation({ blocks: { [here]: 'stone', [next]: 'air' } }), dig).ok).toBe(
          false,
        );
        expect(judgeStep(digBlock, pre, observation({ blocks: { [here]: 'air', [next]: 'stone' } }), dig).ok).toBe(
          true,
        );

        const place = placeBlock.inputSchema.parse(rawPlace);
        const cell = blockKey(place.position);
        const beside = blockKey(east(place.position));
        const empty = observation({ blocks: { [cell]: 'air', [beside]: 'air' } });
        expect(
          judgeStep(placeBlock, empty, observation({ blocks: { [cell]: 'air', [beside]: place.item } }), place).ok,
        ).toBe(false);
        expect(
          judgeStep(
            placeBlock,
            empty,
            observation({ blocks: { [cell]: place.item === 'dirt' ? 'stone' : 'dirt', [beside]: 'air' } }),
            place,
          ).ok,
        ).toBe(false);
        expect(
          judgeStep(placeBlock, empty, observation({ blocks: { [cell]: place.item, [beside]: 'air' } }), place).ok,
        ).toBe(true);
      }),
      RUNS,
    );
  });

  it('build_structure: any one cell missing or wrong fails; every cell as planned passes', () => {
    fc.assert(
      fc.property(arbitraryFor(buildStructure.inputSchema), fc.nat(), (raw, pick) => {
        const args = buildStructure.inputSchema.parse(raw);
        const planned = plannedBlocks(args);
        const built: Record<string, string> = Object.fromEntries(
          planned.map(({ position, block }) => [blockKey(position), block]),
        );
        expect(judgeStep(buildStructure, observation(), observation({ blocks: built }), args).ok).toBe(true);
        const gap = planned[pick % planned.length]!;
        expect(
          judgeStep(
            buildStructure,
            observation(),
            observation({ blocks: { ...built, [blockKey(gap.position)]: 'air' } }),
            args,
          ).ok,
        ).toBe(false);
        expect(
          judgeStep(
            buildStructure,
            observation(),
            observation({ blocks: { ...built, [blockKey(gap.position)]: gap.block === 'dirt' ? 'stone' : 'dirt' } }),
            args,
          ).ok,
        ).toBe(false);
      }),
      RUNS,
    );
  });

  it('navigate: a block past the tolerance asked fails; standing at the goal passes', () => {
    fc.assert(
      fc.property(arbitraryFor(navigate.inputSchema), (raw) => {
        const { target } = navigate.inputSchema.parse(raw);
        const args = { target };
        const y = 'y' in target ? target.y : 10;
        const there = centre({ x: target.x, y, z: target.z });
        const range = target.kind === 'block' ? 0 : target.range;
        const short = { ...there, x: there.x + Math.ceil(range) + 1 };
        expect(judgeStep(navigate, observation(), observation({ position: there }), args).ok).toBe(true);
        expect(judgeStep(navigate, observation(), observation({ position: short }), args).ok).toBe(false);
      }),
      RUNS,
    );
  });

  it('flee and pillar_up: short of the distance or height asked fails; the full one passes', () => {
    fc.assert(
      fc.property(
        arbitraryFor(flee.inputSchema),
        arbitraryFor(pillarUp.inputSchema),
        point,
        (rawFlee, rawPillar, start) => {
          const fleeArgs = flee.inputSchema.parse(rawFlee);
          const pre = observation({ position: centre(start) });
          if (fleeArgs.clearOf) {
            // Judged by the chasers where they are at the end: the nearest of the kinds asked, this far from the bot.
            const chaserAt = (d: number) =>
              observation({
                position: pre.position,
                entities: [
                  {
                    id: 1,
                    name: fleeArgs.clearOf![0]!,
                    position: { ...pre.position, x: pre.position.x + d },
                    health: 20,
                  },
                ],
              });
            expect(judgeStep(flee, pre, chaserAt(fleeArgs.distance), fleeArgs).ok).toBe(true);
            expect(judgeStep(flee, pre, chaserAt(fleeArgs.distance - 1.5), fleeArgs).ok).toBe(false);
          } else {
            const from = fleeArgs.from ? centre(fleeArgs.from) : centre(start);
            const away = (d: number) => observation({ position: { ...from, x: from.x + d } });
            expect(judgeStep(flee, pre, away(fleeArgs.distance), fleeArgs).ok).toBe(true);
            expect(judgeStep(flee, pre, away(fleeArgs.distance - 1.5), fleeArgs).ok).toBe(false);
          }

          const pillarArgs = pillarUp.inputSchema.parse(rawPillar);
          const risen = (dy: number) => observation({ position: { ...pre.position, y: pre.position.y + dy } });
          expect(judgeStep(pillarUp, pre, risen(pillarArgs.height), pillarArgs).ok).toBe(true);
          expect(judgeStep(pillarUp, pre, risen(pillarArgs.height - 1), pillarArgs).ok).toBe(false);
        },
      ),
      RUNS,
    );
  });

  it('equip and consume_food: half the effect fails; the whole effect passes', () => {
    fc.assert(
      fc.property(
        arbitraryFor(equip.inputSchema),
        fc.integer({ min: 0, max: 19 }),
        fc.integer({ min: 1, max: 5 }),
        (raw, food, loaves) => {
          const args = equip.inputSchema.parse(raw);
          const pre = observation({ inventory: { [args.item]: 2, dirt: 1 }, heldItem: 'dirt' });
          if (args.destination === 'hand') {
            expect(judgeStep(equip, pre, with_(pre, { heldItem: 'dirt' }), args).ok).toBe(false);
            expect(judgeStep(equip, pre, with_(pre, { heldItem: args.item }), args).ok).toBe(true);
          } else {
            expect(judgeStep(equip, pre, pre, args).ok).toBe(false);
            expect(judgeStep(equip, pre, with_(pre, { inventory: { [args.item]: 1, dirt: 1 } }), args).ok).toBe(true);
          }

          const hungry = observation({ food, inventory: { bread: loaves } });
          const eat = consumeFood.inputSchema.parse({ item: 'bread' });
          const fed = Math.min(20, food + 5);
          expect(
            judgeStep(consumeFood, hungry, observation({ food: fed, inventory: { bread: loaves - 1 } }), eat).ok,
          ).toBe(true);
          expect(judgeStep(consumeFood, hungry, observation({ food: fed, inventory: { bread: loaves } }), eat).ok).toBe(
            false,
          );
          expect(judgeStep(consumeFood, hungry, observation({ food, inventory: { bread: loaves - 1 } }), eat).ok).toBe(
            false,
          );
        },
      ),
      RUNS,
    );
  });

  it('collect_drops: one drop left on the ground, or one item short, fails; all of them picked up passes', () => {
    const drop = fc.record({
      name: item,
      count: fc.integer({ min: 1, max: 8 }),
      dx: fc.integer({ min: -4, max: 4 }),
      dz: fc.integer({ min: -4, max: 4 }),
    });
    fc.assert(
      fc.property(
        fc.array(drop, { minLength: 1, maxLength: 5 }),
        inventory,
        fc.nat(),
        fc.boolean(),
        (raw, pack, pick, named) => {
          const drops: DroppedItem[] = raw.map((d) => ({
            name: d.name,
            count: d.count,
            position: { x: 0.5 + d.dx, y: 0, z: 0.5 + d.dz },
          }));
          const args = collectDrops.inputSchema.parse(named ? { item: drops[0]!.name } : {});
          const asked = drops.filter((d) => args.item === undefined || d.name === args.item);
          const pre = observation({ inventory: pack, drops });
          const gained = { ...pack };
          for (const d of asked) gained[d.name] = (gained[d.name] ?? 0) + d.count;
          const others = drops.filter((d) => !asked.includes(d));
          expect(judgeStep(collectDrops, pre, observation({ inventory: gained, drops: others }), args).ok).toBe(true);
          const left = asked[pick % asked.length]!;
          const short = { ...gained, [left.name]: gained[left.name]! - left.count };
          expect(
            judgeStep(collectDrops, pre, observation({ inventory: short, drops: [...others, left] }), args).ok,
          ).toBe(false);
          // Gone from the ground but not in the pack (despawned, or taken by someone else): not collected.
          expect(
            judgeStep(
              collectDrops,
              pre,
              observation({ inventory: { ...gained, [left.name]: gained[left.name]! - 1 }, drops: others }),
              args,
            ).ok,
          ).toBe(false);
        },
      ),
      RUNS,
    );
  });
});
