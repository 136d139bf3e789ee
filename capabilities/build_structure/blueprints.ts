export interface BlueprintBlock {
  dx: number;
  dy: number;
  dz: number;
  block: string;
}

/**
 * A 3x3 hut built around the bot standing at the origin: the 8 cells ringing the origin, two high,
 * and a 3x3 roof above head height. No door, so it seals the bot in for the night.
 */
function shelter3x3(block: string): BlueprintBlock[] {
  const blocks: BlueprintBlock[] = [];
  for (const dy of [0, 1]) {
    for (let dx = -1; dx <= 1; dx++)
      for (let dz = -1; dz <= 1; dz++) if (dx !== 0 || dz !== 0) blocks.push({ dx, dy, dz, block });
  }
  for (let dx = -1; dx <= 1; dx++) for (let dz = -1; dz <= 1; dz++) blocks.push({ dx, dy: 2, dz, block });
  return blocks;
}

export const NAMED_BLUEPRINTS = {
  shelter_3x3: shelter3x3('dirt'),
} as const satisfies Record<string, readonly BlueprintBlock[]>;

export type BlueprintName = keyof typeof NAMED_BLUEPRINTS;
