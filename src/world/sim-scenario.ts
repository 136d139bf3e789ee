import type { Clock } from '../contracts/clock.js';
import type { Scenario } from './scenario/schema.js';
import { SimWorld } from './sim/sim-world.js';
import { survivalTerrain } from './terrain/survival-terrain.js';
import { mobKind } from './mobs.js';

/** flying-squid's superflat world: grass on top at y=4, so a bot stands at y=5. */
export const SUPERFLAT_GROUND = {
  top: 4,
  surface: 'grass_block',
  filler: 'dirt',
  fillerDepth: 3,
  deep: 'stone',
  bottom: 0,
} as const;

/** The same scenario file the embedded server applies, laid out in a SimWorld, so a plan runs unchanged in both. */
export function simWorldFromScenario(scenario: Scenario, options: { clock: Clock; seed?: number }): SimWorld {
  const world = SimWorld.create({
    clock: options.clock,
    seed: options.seed ?? 1,
    ground: SUPERFLAT_GROUND,
    ...(scenario.terrain.kind === 'survival' ? { terrain: survivalTerrain(scenario.terrain.seed) } : {}),
    spawn: scenario.spawn,
    inventory: scenario.bot.inventory,
    // The server puts the first item in the first hotbar slot, the one a player holds when it joins.
    heldItem: Object.keys(scenario.bot.inventory)[0] ?? null,
    health: scenario.bot.health,
    food: scenario.bot.food,
    timeOfDay: scenario.timeOfDay,
    daylightCycle: scenario.daylightCycle,
    ...(scenario.spawnAtNight ? { spawnAtNight: scenario.spawnAtNight } : {}),
  });
  for (const fill of scenario.fills) world.fill(fill.from, fill.to, fill.block);
  for (const block of scenario.blocks) world.setBlock(block, block.block);
  for (const mob of scenario.mobs)
    world.spawnEntity({
      name: mob.name,
      kind: mobKind(mob.name)!,
      position: { x: mob.x + 0.5, y: mob.y, z: mob.z + 0.5 },
      ai: mob.ai !== false,
      ...(mob.health === undefined ? {} : { health: mob.health }),
    });
  return world;
}
