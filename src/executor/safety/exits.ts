import type { Vec3Like } from '../../contracts/world.js';
import { canStand, type MobTerrain } from '../../world/mob-rules/index.js';
import { blocksMovement } from '../../world/mob-rules/terrain.js';
import { SIDES } from './encounter.js';
import { cell } from './responses.js';
import type { ShelterVerb } from './shelters.js';

/* The ground cell outside a shelter that leave_shelter steps out to once the walkers left. */

/**
 * Where leave_shelter steps out to, on the side away from `away` (the last threats' centre) when there is a choice:
 * down a pillar, its foot (the lowest block of the column with nothing beside it); through a wall, two cells out on a
 * side with ground there; out of a hole, a cell beside its top with ground under it. Null when there is none.
 */
export function wayOutOf(shelter: ShelterVerb, terrain: MobTerrain, at: Vec3Like, away?: Vec3Like): Vec3Like | null {
  const feet = cell(at);
  if (shelter === 'pillar_up') {
    let y = feet.y;
    while (y > feet.y - 64 && isLoneBlock(terrain, feet.x, y - 1, feet.z)) y--;
    return y < feet.y ? { ...feet, y } : null;
  }
  const [out, up] = shelter === 'wall_in' ? [2, 0] : [1, 3];
  const cells = SIDES.map(([dx, dz]) => ({ x: feet.x + dx * out, y: feet.y + up, z: feet.z + dz * out }));
  const open = cells.filter((c) => canStand(terrain, c.x, c.y, c.z));
  const distance = (c: Vec3Like) => (away ? Math.hypot(c.x + 0.5 - away.x, c.z + 0.5 - away.z) : 0);
  return open.sort((a, b) => distance(b) - distance(a))[0] ?? null;
}

/** A solid block with nothing that blocks movement on any of its four sides: a pillar's block. */
function isLoneBlock(terrain: MobTerrain, x: number, y: number, z: number): boolean {
  return (
    blocksMovement(terrain.block(x, y, z)) &&
    SIDES.every(([dx, dz]) => !blocksMovement(terrain.block(x + dx, y, z + dz)))
  );
}
