/*
 * Worn armour and what it takes off a hit, as vanilla Java 1.21 counts it (https://minecraft.wiki/w/Armor#Defense_points,
 * /w/Armor#Armor_toughness, /w/Armor#Damage_reduction; CombatRules.getDamageAfterAbsorb in Mojang's mappings). One
 * module so that the worlds' damage and the safety layer's judgment of a fight read the same numbers.
 */

/** Defense points of one piece and its toughness. */
export interface ArmourPiece {
  points: number;
  toughness: number;
}

const PIECES = ['helmet', 'chestplate', 'leggings', 'boots'] as const;
// helmet, chestplate, leggings, boots; toughness per piece.
const MATERIALS: Readonly<Record<string, { points: readonly [number, number, number, number]; toughness: number }>> = {
  leather: { points: [1, 3, 2, 1], toughness: 0 },
  golden: { points: [2, 5, 3, 1], toughness: 0 },
  chainmail: { points: [2, 5, 4, 1], toughness: 0 },
  iron: { points: [2, 6, 5, 2], toughness: 0 },
  diamond: { points: [3, 8, 6, 3], toughness: 2 },
  netherite: { points: [3, 8, 6, 3], toughness: 3 },
};

/** The piece an item is when worn, or null for an item that is no armour. */
export function armourPiece(item: string): ArmourPiece | null {
  if (item === 'turtle_helmet') return { points: 2, toughness: 0 };
  const cut = item.lastIndexOf('_');
  const material = MATERIALS[item.slice(0, cut)];
  const piece = PIECES.indexOf(item.slice(cut + 1) as (typeof PIECES)[number]);
  if (!material || piece < 0) return null;
  return { points: material.points[piece]!, toughness: material.toughness };
}

/** The defense points and toughness of everything worn (the items in the four armour slots). */
export function armourOf(worn: readonly string[]): ArmourPiece {
  let points = 0;
  let toughness = 0;
  for (const item of worn) {
    const piece = armourPiece(item);
    if (!piece) continue;
    points += piece.points;
    toughness += piece.toughness;
  }
  return { points, toughness };
}

/**
 * What a hit of `damage` takes off a player wearing `armour`: damage × (1 − clamp(points − damage / (2 + toughness / 4),
 * points / 5, 20) / 25). Full diamond (20 points, 8 toughness) takes a zombie's 3 down to 0.69.
 */
export function damageAfterArmour(damage: number, armour: ArmourPiece): number {
  const { points, toughness } = armour;
  const defense = Math.min(20, Math.max(points / 5, points - damage / (2 + toughness / 4)));
  return damage * (1 - defense / 25);
}
