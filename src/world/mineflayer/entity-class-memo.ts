import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type EntityLoader = ((registryOrVersion: unknown) => unknown) & Record<PropertyKey, unknown>;

const SHARED = Symbol.for('verbtree.entityClassMemo');

/**
 * mineflayer's entities plugin builds its Entity class once per bot (`require('prismarine-entity')(bot.version)`), so
 * a worker holding n bots had n Entity classes, and every function that reads or writes the entities of more than a
 * few bots (mineflayer's packet handlers, the crowd's moves read off the bytes, `entityInfo` of each safety check)
 * went megamorphic over their maps. In-process, a move and an `entityInfo` over 3,000 entities took 42 ns each with one
 * class, 255 ns with 50 and 208 ns with 150 (2026-12-06). Given a version's name, prismarine-entity builds its class
 * from that version's static data alone: this answers each name's later calls with the class of its first, so the bots
 * of a version share one. A registry (an object, which may carry what a server sent) goes to the loader as before.
 * Call it before mineflayer's plugins load (`loadMineflayer`).
 */
export function shareEntityClasses(): void {
  const filename = createRequire(require.resolve('mineflayer')).resolve('prismarine-entity');
  require(filename);
  const module = require.cache[filename]!;
  const loader = module.exports as EntityLoader;
  if (loader[SHARED]) return;
  const classes = new Map<string, unknown>();
  const shared = ((registryOrVersion: unknown) => {
    if (typeof registryOrVersion !== 'string') return loader(registryOrVersion);
    if (!classes.has(registryOrVersion)) classes.set(registryOrVersion, loader(registryOrVersion));
    return classes.get(registryOrVersion);
  }) as EntityLoader;
  module.exports = Object.assign(shared, loader, { [SHARED]: true });
}
