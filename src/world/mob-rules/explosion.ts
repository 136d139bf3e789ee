import minecraftData from 'minecraft-data';
import type { Vec3Like } from '../../contracts/world.js';
import type { Random } from '../../random.js';
import { MINECRAFT_VERSION } from '../recipes.js';
import { PLAYER_HEIGHT, PLAYER_WIDTH } from './stats.js';
import { type Cell, lineOfSight, type MobTerrain } from './terrain.js';

const data = minecraftData(MINECRAFT_VERSION);

/*
 * An explosion as vanilla Java 1.21 makes one (https://minecraft.wiki/w/Explosion; Explosion and
 * ExplosionDamageCalculator in Mojang's mappings): rays from its centre break the blocks their strength gets through,
 * each broken block drops with a chance of 1 in the power, and an entity within twice the power takes damage by its
 * distance and by how much of its body the centre can see.
 */

/** Rays leave the centre towards the 16 × 16 × 16 grid on a cube's surface, in steps of 0.3 blocks. */
const RAY_GRID = 16;
const RAY_STEP = 0.3;
/** A ray's strength falls this much per step (0.75 × RAY_STEP), and by (blast resistance + 0.3) × 0.3 in a block. */
const STEP_DECAY = 0.22500001;

export interface BlastedBlocks {
  /** Cells the blast breaks, each once. */
  broken: Cell[];
  /** The broken cells whose block drops its items (1 in `power`). */
  dropped: Cell[];
}

/** What a block resists a blast with: its blast resistance (air none; an unloaded cell stops every ray). */
function resistance(name: string): number {
  return data.blocksByName[name]?.resistance ?? Infinity;
}

/** The blocks a blast of `power` at `centre` breaks, and which of them drop; `random` draws each ray's strength. */
export function blastBlocks(terrain: MobTerrain, centre: Vec3Like, power: number, random: Random): BlastedBlocks {
  const broken = new Map<string, Cell>();
  const last = RAY_GRID - 1;
  for (let i = 0; i < RAY_GRID; i++)
    for (let j = 0; j < RAY_GRID; j++)
      for (let k = 0; k < RAY_GRID; k++) {
        if (i !== 0 && i !== last && j !== 0 && j !== last && k !== 0 && k !== last) continue;
        const dx = (i / last) * 2 - 1;
        const dy = (j / last) * 2 - 1;
        const dz = (k / last) * 2 - 1;
        const length = Math.hypot(dx, dy, dz);
        let strength = power * (0.7 + random() * 0.6);
        let { x, y, z } = centre;
        while (strength > 0) {
          const cell = { x: Math.floor(x), y: Math.floor(y), z: Math.floor(z) };
          const name = terrain.block(cell.x, cell.y, cell.z);
          if (name === null) break;
          if (name !== 'air' && name !== 'cave_air' && name !== 'void_air') {
            strength -= (resistance(name) + 0.3) * 0.3;
            if (strength > 0) broken.set(`${cell.x},${cell.y},${cell.z}`, cell);
          }
          x += (dx / length) * RAY_STEP;
          y += (dy / length) * RAY_STEP;
          z += (dz / length) * RAY_STEP;
          strength -= STEP_DECAY;
        }
      }
  const cells = [...broken.values()];
  return { broken: cells, dropped: cells.filter(() => random() < 1 / power) };
}

/** What a block blown up drops: its loot without a tool (stone gives cobblestone, grass dirt). */
export function blastDrops(name: string): string[] {
  return (data.blocksByName[name]?.drops ?? []).flatMap((id) => {
    const item = data.items[typeof id === 'number' ? id : (id as { drop: number }).drop];
    return item ? [item.name] : [];
  });
}

/**
 * The share of a body the centre sees (Explosion.getSeenPercent): rays from a grid over its box (a player's unless
 * told), spaced 1 / (2 × size + 1), offset as vanilla offsets them, each unobstructed one counting.
 */
export function exposure(
  terrain: MobTerrain,
  centre: Vec3Like,
  feet: Vec3Like,
  box: { width: number; height: number } = { width: PLAYER_WIDTH, height: PLAYER_HEIGHT },
): number {
  const stepXZ = 1 / (box.width * 2 + 1);
  const stepY = 1 / (box.height * 2 + 1);
  const offset = (1 - Math.floor(1 / stepXZ) * stepXZ) / 2;
  let seen = 0;
  let all = 0;
  for (let fx = 0; fx <= 1; fx += stepXZ)
    for (let fy = 0; fy <= 1; fy += stepY)
      for (let fz = 0; fz <= 1; fz += stepXZ) {
        const point = {
          x: feet.x - box.width / 2 + fx * box.width + offset,
          y: feet.y + fy * box.height,
          z: feet.z - box.width / 2 + fz * box.width + offset,
        };
        if (lineOfSight(terrain, point, centre)) seen++;
        all++;
      }
  return seen / all;
}

/**
 * The damage a blast of `power` deals a body whose feet are `distance` from its centre with `seen` of it exposed:
 * impact = (1 − distance / (2 × power)) × seen, damage = (impact² + impact) / 2 × 7 × 2 × power + 1; none beyond
 * 2 × power. A creeper's (power 3) point-blank blast deals 43 (Normal).
 */
export function blastDamage(power: number, distance: number, seen: number): number {
  const reach = 2 * power;
  if (distance > reach) return 0;
  const impact = (1 - distance / reach) * seen;
  return ((impact * impact + impact) / 2) * 7 * reach + 1;
}
