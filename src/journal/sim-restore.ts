import { feetCell } from '../contracts/stands-on.js';
import type { Clock } from '../contracts/clock.js';
import type { Scenario } from '../world/scenario/schema.js';
import { SUPERFLAT_GROUND } from '../world/sim-scenario.js';
import { SimWorld } from '../world/sim/sim-world.js';
import type { Journal } from './journal.js';
import type { WorldSnapshot } from './world-snapshot.js';

/**
 * A SimWorld lives in memory and dies with its process, unlike a server's
 * world. To resume a plan on it, rebuild what the plan had achieved: the same
 * scenario (or the default ground), then every block its completed steps
 * changed, in order, and the bot as the last completed step left it (position,
 * inventory, held item, health, food). Only the current line of runs counts
 * (the latest fresh run and the resumes after it): an earlier run of the same
 * planId happened in another world. Effects of a step killed midway are not
 * in the journal and so are not restored: the rebuilt world is the one the last
 * verified step left, and that step runs again. Not restored: dropped item
 * entities and worn armour.
 */
export async function simWorldFromJournal(
  journal: Journal,
  planId: string,
  options: { clock: Clock; seed: number; scenario?: Scenario },
): Promise<SimWorld> {
  const effects = await journal.lineEffects(planId);
  const last = effects.at(-1);
  const bot = last ? (JSON.parse(last.post) as WorldSnapshot) : undefined;
  const { scenario } = options;
  const world = SimWorld.create({
    clock: options.clock,
    seed: options.seed,
    ground: SUPERFLAT_GROUND,
    // The cell it stood in (feet at 4.9375 on farmland stand in cell 5).
    spawn: bot ? feetCell(bot.position) : (scenario?.spawn ?? { x: 0, y: 5, z: 0 }),
    ...(bot
      ? { inventory: bot.inventory, heldItem: bot.heldItem, health: bot.health, food: bot.food }
      : scenario
        ? { inventory: scenario.bot.inventory, health: scenario.bot.health, food: scenario.bot.food }
        : {}),
  });
  for (const fill of scenario?.fills ?? []) world.fill(fill.from, fill.to, fill.block);
  for (const block of scenario?.blocks ?? []) world.setBlock(block, block.block);
  for (const effect of effects) {
    for (const block of JSON.parse(effect.blocks) as { x: number; y: number; z: number; name: string }[])
      world.setBlock(block, block.name);
  }
  return world;
}
