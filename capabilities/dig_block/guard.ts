import minecraftData from 'minecraft-data';
import type { GuardContext, GuardResult } from 'verbtree';
import { betterTool, MINECRAFT_VERSION } from 'verbtree';
import { digTimeMs } from 'verbtree';
import { describePosition, isAir } from './air.js';
import type { DigBlockArgs } from './schema.js';

const data = minecraftData(MINECRAFT_VERSION);

/**
 * Longest dig the step can finish: its state watchdog (twice the expected 10 s)
 * ends a longer one anyway, after holding the bot still for 20 s (obsidian by hand takes 250 s).
 */
export const MAX_DIG_MS = 20_000;

export function digBlockGuard({ world }: GuardContext, { position, block }: DigBlockArgs): GuardResult {
  const at = describePosition(position);
  const found = world.blockAt(position);
  if (!found) {
    return {
      ok: false,
      reason: `nothing is known about the block at ${at} (its chunk is not loaded); navigate near it first`,
      missing: { predicate: 'near_position', detail: { ...position } },
    };
  }
  if (isAir(found.name)) return { ok: false, reason: `there is no block to dig at ${at}: it is already ${found.name}` };
  if (block !== undefined && found.name !== block) {
    return {
      ok: false,
      reason: `expected ${block} at ${at} but the world shows ${found.name}; re-plan with the block that is there`,
    };
  }
  if (!found.diggable) return { ok: false, reason: `${found.name} at ${at} is unbreakable; choose another block` };
  const held = world.heldItem();
  const tool = betterTool(found.name, held, world.inventory()) ?? held;
  const digMs = digTimeMs(found.name, tool);
  if (digMs > MAX_DIG_MS) {
    const harvester = Object.keys(data.blocksByName[found.name]?.harvestTools ?? {}).map(
      (id) => data.items[Number(id)]?.name,
    )[0];
    return {
      ok: false,
      reason: `${found.name} at ${at} takes ${Math.round(digMs / 1000)} s to break with ${tool ?? 'the bare hand'}, more than ${MAX_DIG_MS / 1000} s; bring a better tool${harvester ? ` such as ${harvester}` : ''} or choose another block`,
    };
  }
  return { ok: true };
}
