/** Every block name Minecraft uses for empty space. */
export const AIR_BLOCKS: ReadonlySet<string> = new Set(['air', 'cave_air', 'void_air']);

export function isAir(name: string | undefined): boolean {
  return name !== undefined && AIR_BLOCKS.has(name);
}

export function describePosition({ x, y, z }: { x: number; y: number; z: number }): string {
  return `(${x}, ${y}, ${z})`;
}
