import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Modules whose requires are answered from memory already. */
const remembering = new WeakSet<NodeJS.Module>();

/**
 * prismarine-physics' PlayerState, built anew by every bot on every physics tick, calls `require('minecraft-data')` and
 * `require('prismarine-nbt')` in its constructor, and each call goes the whole way of Node's module loader (resolving,
 * the cache, the parent's children): 2.6 % of a crowd worker's busy time at 50 bots (its CPU profile of the plan phase,
 * 2026-12-06). Those modules are loaded once and their exports never change after (minecraft-data's memo is installed
 * before, `memoizeMinecraftData`): this answers prismarine-physics' own requires from memory after the first. Node's
 * require of a module is `module.require(id)`; this sets that on prismarine-physics' module alone. Call it after
 * `memoizeMinecraftData` and before mineflayer builds a PlayerState.
 */
export function rememberPhysicsRequires(): void {
  const fromMineflayer = createRequire(require.resolve('mineflayer'));
  const filename = fromMineflayer.resolve('prismarine-physics');
  fromMineflayer('prismarine-physics');
  const physics = require.cache[filename];
  if (!physics || remembering.has(physics)) return;
  remembering.add(physics);
  const load = physics.require.bind(physics);
  const loaded = new Map<string, unknown>();
  physics.require = ((id: string) => {
    if (!loaded.has(id)) loaded.set(id, load(id));
    return loaded.get(id);
  }) as NodeJS.Require;
}
