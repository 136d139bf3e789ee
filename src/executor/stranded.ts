import type { Vec3Like, WorldPort } from '../contracts/world.js';
import { MAX_AIR, isWaterFilled } from '../world/breath-rules.js';
import type { StepOutcome } from './events.js';

/** The water cell holding the bot's feet or head ("3,2,0"), or null on dry ground. */
export function waterAround(world: WorldPort): string | null {
  const feet = cell(world.position());
  for (const dy of [0, 1]) {
    const name = world.blockAt({ x: feet.x, y: feet.y + dy, z: feet.z })?.name;
    if (name !== undefined && isWaterFilled(name)) return `${feet.x},${feet.y + dy},${feet.z}`;
  }
  return null;
}

/**
 * A failed step that leaves the bot in water says so, with the air it has left: whoever reads the failure (a planner,
 * a person) learns that the bot is afloat in water it could not leave, and how long it has there, not only how the
 * walk failed. Both worlds keep an idle bot afloat at the surface (a player holding jump), so it breathes while the
 * plan is decided; where the surface is roofed it cannot, and the air says so.
 */
export function noteWater(world: WorldPort, outcome: StepOutcome): StepOutcome {
  if (outcome.ok || outcome.detail.includes('; the bot is in water at ')) return outcome;
  try {
    const water = waterAround(world);
    if (water === null) return outcome;
    const air = world.air ? `${world.air()} of ${MAX_AIR} air` : 'its air unknown';
    return { ...outcome, detail: `${outcome.detail}; the bot is in water at ${water} with ${air}` };
  } catch {
    // A world that can no longer be read (disconnected, or given up by its holder) adds nothing to the failure.
    return outcome;
  }
}

const cell = (p: Vec3Like): Vec3Like => ({ x: Math.floor(p.x), y: Math.floor(p.y), z: Math.floor(p.z) });
