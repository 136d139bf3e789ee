import { chooseBuildingBlock, type GuardContext, type GuardResult } from 'verbtree';
import type { PillarUpArgs } from './schema.js';

const AIR = new Set(['air', 'cave_air', 'void_air']);

export function pillarUpGuard({ world, observation }: GuardContext, { height, block }: PillarUpArgs): GuardResult {
  const item = block ?? chooseBuildingBlock(observation.inventory, height) ?? 'dirt';
  const have = observation.inventory[item] ?? 0;
  if (have < height) {
    return {
      ok: false,
      reason: `a pillar of ${height} needs ${height} ${item}, the inventory holds ${have}`,
      missing: { predicate: 'has_item', detail: { item, count: height - have } },
    };
  }
  // Rising `height` blocks puts the head `height` cells above where it is now; each of those cells must be open.
  const x = Math.floor(observation.position.x);
  const z = Math.floor(observation.position.z);
  const headY = Math.floor(observation.position.y) + 1;
  for (let rise = 1; rise <= height; rise++) {
    const above = world.blockAt({ x, y: headY + rise, z });
    if (above && !AIR.has(above.name)) {
      return {
        ok: false,
        reason: `${above.name} at (${x}, ${headY + rise}, ${z}) leaves room to rise only ${rise - 1} of ${height} blocks`,
      };
    }
  }
  return { ok: true };
}
