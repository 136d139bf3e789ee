import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export type MinecraftData = ((version: unknown, preNetty?: boolean) => unknown) & Record<PropertyKey, unknown>;

const MEMOIZED = Symbol.for('verbtree.minecraftDataMemo');

/**
 * prismarine-physics asks minecraft-data for the bot's version on every simulated tick (its PlayerState constructor
 * calls `require('minecraft-data')(bot.version)`), and each call parses the version string anew into a Version object
 * of a dozen closures before finding its cached data: 11 % of a fleet worker's CPU with 75 bots (a CPU profile of
 * `npm run bench -- fleet --bots 150 --workers 2`). The require cache then answers the same function, which remembers
 * each version's answer; minecraft-data's own answer for a version is one object, so nothing else changes.
 */
export function memoizeMinecraftData(): void {
  const fromPhysics = createRequire(createRequire(require.resolve('mineflayer')).resolve('prismarine-physics'));
  const filename = fromPhysics.resolve('minecraft-data');
  fromPhysics('minecraft-data');
  const module = require.cache[filename]!;
  const original = module.exports as MinecraftData;
  if (!original[MEMOIZED]) module.exports = memoizeByVersion(original);
}

/** The same function, calling the original once per version and answering every later call from memory. */
export function memoizeByVersion<F extends MinecraftData>(original: F): F {
  const answers = new Map<string, unknown>();
  const memoized = ((version: unknown, preNetty?: boolean) => {
    const key = `${String(version)}\u0000${preNetty === true}`;
    if (!answers.has(key)) answers.set(key, original(version, preNetty));
    return answers.get(key);
  }) as F;
  // Version, supportedVersions, versionsByMinecraftVersion, schemas…: what else the module exports stays.
  return Object.assign(memoized, original, { [MEMOIZED]: true });
}
