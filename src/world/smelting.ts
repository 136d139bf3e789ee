/*
 * Furnace rules shared by both worlds (minecraft-data has no smelting
 * recipes): what an input smelts into, how long a fuel burns, and how long an
 * item takes, in game ticks (20 a second), as vanilla 1.21.4 has them.
 */

export const TICKS_PER_SECOND = 20;
/** A furnace cooks one item in 10 s. */
export const SMELT_TICKS_PER_ITEM = 200;

const LOGS = ['oak', 'spruce', 'birch', 'jungle', 'acacia', 'dark_oak', 'mangrove', 'cherry'];

const SMELTS_INTO: Readonly<Record<string, string>> = {
  raw_iron: 'iron_ingot',
  iron_ore: 'iron_ingot',
  deepslate_iron_ore: 'iron_ingot',
  raw_gold: 'gold_ingot',
  gold_ore: 'gold_ingot',
  raw_copper: 'copper_ingot',
  copper_ore: 'copper_ingot',
  cobblestone: 'stone',
  stone: 'smooth_stone',
  sand: 'glass',
  red_sand: 'glass',
  clay_ball: 'brick',
  netherrack: 'nether_brick',
  cactus: 'green_dye',
  kelp: 'dried_kelp',
  beef: 'cooked_beef',
  porkchop: 'cooked_porkchop',
  chicken: 'cooked_chicken',
  mutton: 'cooked_mutton',
  rabbit: 'cooked_rabbit',
  cod: 'cooked_cod',
  salmon: 'cooked_salmon',
  potato: 'baked_potato',
  ...Object.fromEntries(
    LOGS.flatMap((wood) => [`${wood}_log`, `${wood}_wood`, `stripped_${wood}_log`].map((log) => [log, 'charcoal'])),
  ),
};

/** Burn time of each fuel, in ticks. */
const BURN_TICKS: Readonly<Record<string, number>> = {
  coal: 1600,
  charcoal: 1600,
  coal_block: 16000,
  blaze_rod: 2400,
  lava_bucket: 20000,
  stick: 100,
  crafting_table: 300,
  ...Object.fromEntries(
    LOGS.flatMap((wood) =>
      [`${wood}_log`, `${wood}_planks`, `${wood}_wood`, `stripped_${wood}_log`].map((name) => [name, 300]),
    ),
  ),
};

/** What one `input` smelts into; null when a furnace does not take it. */
export function smeltsInto(input: string): string | null {
  return SMELTS_INTO[input] ?? null;
}

/** How long one `fuel` burns, in ticks; null when it is not a fuel. */
export function burnTicks(fuel: string): number | null {
  return BURN_TICKS[fuel] ?? null;
}

/** Every fuel, longest-burning first: the order a bot should prefer. */
export const FUELS: readonly string[] = Object.keys(BURN_TICKS).sort((a, b) => BURN_TICKS[b]! - BURN_TICKS[a]!);

/**
 * How many `fuel` items smelting `count` items burns (whole items: a furnace lights a new one only when it needs heat).
 */
export function fuelFor(fuel: string, count: number): number {
  const ticks = burnTicks(fuel);
  if (ticks === null) throw new RangeError(`${fuel} is not a fuel`);
  return Math.ceil((count * SMELT_TICKS_PER_ITEM) / ticks);
}

/** Inputs that smelt into `output` (e.g. iron_ingot ← raw_iron, iron_ore, …). */
export function smeltingInputsOf(output: string): string[] {
  return Object.keys(SMELTS_INTO).filter((input) => SMELTS_INTO[input] === output);
}
