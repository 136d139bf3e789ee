/**
 * The material whose tool multipliers set how fast a block is mined, as the game has it.
 *
 * minecraft-data 1.21.x gives the blocks that need a stone pickaxe or better (iron, gold, copper, lapis, redstone
 * and diamond ores, obsidian, metal blocks: 93 in 1.21.4) the material `incorrect_for_wooden_tool` in place of
 * `mineable/pickaxe`. That tag's multipliers name only wooden tools, so a stone or iron pickaxe mined iron ore at
 * hand speed in both worlds (mineflayer's digTime and SimWorld's read the same data): 4.55 s where the game takes
 * 1.15 s. Every one of those blocks is mined with a pickaxe in the game.
 */
export function miningMaterial<M extends string | null | undefined>(material: M): M | string {
  return material?.startsWith('incorrect_for_') ? 'mineable/pickaxe' : material;
}
