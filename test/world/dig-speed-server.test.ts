import { describe, expect, it } from 'vitest';
import { Vec3 } from 'vec3';
import { digTimeMs } from '../../src/world/sim/block-data.js';
import { botOf } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../helpers/embedded.js';

/**
 * How long a dig takes with a tool, in vanilla's numbers, in both worlds. minecraft-data 1.21.4 gives iron ore and
 * the other blocks that need a stone pickaxe the material `incorrect_for_wooden_tool`, whose multipliers name only
 * wooden tools: mineflayer and SimWorld both mined iron ore at hand speed with any pickaxe (4.55 s, not 1.15 s).
 */

// Vanilla: ticks = ceil(hardness * (harvestable ? 30 : 100) / tool speed), at 50 ms a tick.
const CASES = [
  { block: 'iron_ore', tool: 'stone_pickaxe', ms: 1150 }, // hardness 3, stone tools 4
  { block: 'iron_ore', tool: 'iron_pickaxe', ms: 750 }, // iron tools 6
  { block: 'iron_ore', tool: 'wooden_pickaxe', ms: 7500 }, // wood 2, but it cannot harvest it: 3 * 100 / 2
  { block: 'diamond_ore', tool: 'iron_pickaxe', ms: 750 },
  { block: 'stone', tool: 'wooden_pickaxe', ms: 1150 }, // hardness 1.5, wood 2
  { block: 'oak_log', tool: 'stone_pickaxe', ms: 3000 }, // hardness 2, a pickaxe does not speed an axe's block
] as const;

const ORE_AT = { x: 2, y: 5, z: 0 };
const suite = embeddedSuite({
  blocks: CASES.map(({ block }, i) => ({ ...ORE_AT, z: i, block })),
  bot: { inventory: { stone_pickaxe: 1, iron_pickaxe: 1, wooden_pickaxe: 1 } },
});

describe('dig time by tool, as the game has it', () => {
  it('SimWorld', () => {
    for (const { block, tool, ms } of CASES)
      expect({ block, tool, ms: digTimeMs(block, tool) }).toEqual({ block, tool, ms });
  });

  it('the embedded server, timed by a real bot (mineflayer waits this long before it says the dig is done)', async () => {
    const world = await suite.world.connectBot('digger');
    const bot = botOf(world);
    // Off the ground a dig takes five times as long, as in the game: wait until the bot has landed from its spawn.
    while (!bot.entity.onGround) await bot.waitForTicks(1);
    for (const [i, { block, tool, ms }] of CASES.entries()) {
      await world.equip(tool, 'hand');
      const target = bot.blockAt(new Vec3(ORE_AT.x, ORE_AT.y, i))!;
      expect(target.name).toBe(block);
      expect({ block, tool, ms: bot.digTime(target) }).toEqual({ block, tool, ms });
    }
  });
});
