import type { SimWorld, SimWorldOptions } from '../../src/world/sim/index.js';

/**
 * SimWorld at midnight, mobs by the rules: the bot at half health, bare-handed but for a wooden shovel, with a few
 * blocks, walks off (`walkOff`) while three zombies and a skeleton close in (`spawnDigInMobs`). A pillar or a wall
 * would leave it in the skeleton's sight: it digs in, the zombies 8 blocks off (a hole with a shovel, its drops and
 * its cover take 2.45 s; a zombie closer than 7 is at the hole before its top is closed, and walks into it).
 */
export const DIG_IN_NIGHT = {
  ground: { radius: 40 },
  timeOfDay: 18_000,
  health: 10,
  inventory: { wooden_shovel: 1, dirt: 16 },
} satisfies Partial<SimWorldOptions>;

export function spawnDigInMobs(world: SimWorld): void {
  for (const [name, x, z] of [
    ['zombie', 8, 0],
    ['zombie', -8, 2],
    ['zombie', 0, 9],
    ['skeleton', 10, 10],
  ] as const)
    world.spawnEntity({ name, kind: 'hostile', position: { x: x + 0.5, y: 0, z: z + 0.5 }, ai: true });
}

/** The walk the mobs interrupt: 30 blocks off, away from them. */
export const walkOff = {
  stepId: 'walk',
  type: 'navigate',
  args: { target: { kind: 'near', x: 0, y: 0, z: -30, range: 1 } },
};
