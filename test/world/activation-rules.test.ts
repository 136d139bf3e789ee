import fc from 'fast-check';
import minecraftData from 'minecraft-data';
import prismarineBlock from 'prismarine-block';
import { describe, expect, it } from 'vitest';
import { WorldError } from '../../src/contracts/world.js';
import { activationOf, blockState, isOpenable, toggledProperty } from '../../src/world/activation.js';
import { blockStateOf, withBoolean } from '../../src/world/embedded/block-states.js';

const registry = minecraftData('1.21.4');
const Block = prismarineBlock(registry as never);
const names = registry.blocksArray.map((b) => b.name);
const items = fc.constantFrom(null, 'wooden_hoe', 'diamond_hoe', 'dirt', 'stick');
const above = fc.constantFrom(null, 'air', 'stone', 'oak_door');

describe('the rules of using a block (both worlds apply them)', () => {
  it('every block and item: a new state or a refusal with a code, never anything else; a toggle undone by a second use', () => {
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.boolean(), items, above, (name, on, item, up) => {
        const before = blockState(name, { open: on, powered: on });
        let after;
        try {
          after = activationOf('0,0,0', before, item, up);
        } catch (error) {
          expect(error).toBeInstanceOf(WorldError);
          expect(['guard_failed', 'precondition_missing']).toContain((error as WorldError).code);
          return;
        }
        if (after.name === 'farmland') {
          expect(item?.endsWith('_hoe') && up === 'air').toBe(true);
          return;
        }
        expect(after.name).toBe(name);
        const key = toggledProperty(name)!;
        expect(isOpenable(name) || name === 'lever').toBe(true);
        expect(after.properties[key]).toBe(!on);
        expect(activationOf('0,0,0', after, item, up)).toEqual(before);
      }),
    );
  });
});

describe("the embedded server's block states", () => {
  const toggles = registry.blocksArray.filter((b) => toggledProperty(b.name) !== null);

  it('read the toggled property as minecraft-data lays it out, for every state of every door, trapdoor, gate and lever', () => {
    expect(toggles.length).toBeGreaterThan(40);
    for (const block of toggles) {
      const key = toggledProperty(block.name)!;
      for (let id = block.minStateId; id <= block.maxStateId; id++) {
        expect(blockStateOf(registry, id)).toEqual({
          name: block.name,
          properties: { [key]: Block.fromStateId(id, 0).getProperties()[key] },
        });
      }
    }
  });

  it('set it without touching any other property (facing, half, hinge, waterlogged …)', () => {
    const states = toggles.flatMap((b) =>
      Array.from({ length: b.maxStateId - b.minStateId + 1 }, (_, i) => [b, b.minStateId + i] as const),
    );
    fc.assert(
      fc.property(fc.constantFrom(...states), fc.boolean(), ([block, id], value) => {
        const key = toggledProperty(block.name)!;
        const set = withBoolean(registry, id, key, value);
        const { [key]: got, ...rest } = Block.fromStateId(set, 0).getProperties();
        const { [key]: _was, ...restBefore } = Block.fromStateId(id, 0).getProperties();
        expect(got).toBe(value);
        expect(rest).toEqual(restBefore);
      }),
    );
  });
});
