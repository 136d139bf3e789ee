import { type Random, randomInt } from '../../random.js';

/*
 * What a killed mob drops, as vanilla's loot tables give it without Looting (data/minecraft/loot_table/entities/*.json,
 * 1.21), for the mobs both worlds run. Source: the Minecraft Wiki's Drops page (https://minecraft.wiki/w/Drops: "a cow
 * drops 0–2 leather items and 1–3 raw beef items", each count drawn uniformly over its range) and each mob's page
 * (/w/Cow, /w/Pig, /w/Sheep, /w/Chicken, /w/Zombie, /w/Skeleton, /w/Spider, /w/Creeper). minecraft-data's
 * `entityLoot` gives [1, 1] for most of these: its counts are not used.
 * Left out: rare drops (a zombie's iron ingot, carrot or potato, 2.5 % on a player's kill), cooked meat from an animal
 * killed while on fire (neither world sets animals alight), and babies, which drop nothing (neither world has them).
 */

/** One item a mob may drop: a count drawn uniformly from [min, max], where a count below 1 drops nothing. */
export interface LootEntry {
  item: string;
  min: number;
  max: number;
  /** Drops only when a player dealt the killing blow (vanilla's `killed_by_player` condition). */
  playerKillOnly?: boolean;
}

/** Each mob's loot, by its minecraft-data name. A mob not named here drops nothing. */
export const MOB_LOOT: Readonly<Record<string, readonly LootEntry[]>> = {
  cow: [
    { item: 'leather', min: 0, max: 2 },
    { item: 'beef', min: 1, max: 3 },
  ],
  pig: [{ item: 'porkchop', min: 1, max: 3 }],
  // An unsheared sheep: its wool in its colour (both worlds' sheep are white).
  sheep: [
    { item: 'mutton', min: 1, max: 2 },
    { item: 'white_wool', min: 1, max: 1 },
  ],
  chicken: [
    { item: 'feather', min: 0, max: 2 },
    { item: 'chicken', min: 1, max: 1 },
  ],
  zombie: [{ item: 'rotten_flesh', min: 0, max: 2 }],
  skeleton: [
    { item: 'arrow', min: 0, max: 2 },
    { item: 'bone', min: 0, max: 2 },
  ],
  // The eye's table counts from -1 to 1: a third of a player's kills drop one.
  spider: [
    { item: 'string', min: 0, max: 2 },
    { item: 'spider_eye', min: -1, max: 1, playerKillOnly: true },
  ],
  creeper: [{ item: 'gunpowder', min: 0, max: 2 }],
};

/** A stack a killed mob drops: one item entity on the ground where it died. */
export interface LootStack {
  item: string;
  count: number;
}

/**
 * What a mob named `name` drops when it dies, drawn from `random` (each world passes a seeded stream of its own, so a
 * seeded world drops the same loot every run). Stacks of 0 are left out.
 */
export function mobLoot(name: string, random: Random, killedByPlayer: boolean): LootStack[] {
  const stacks: LootStack[] = [];
  for (const entry of MOB_LOOT[name] ?? []) {
    if (entry.playerKillOnly && !killedByPlayer) continue;
    const count = randomInt(random, entry.min, entry.max);
    if (count > 0) stacks.push({ item: entry.item, count });
  }
  return stacks;
}
