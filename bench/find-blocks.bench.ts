import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { SystemClock } from '../src/clock/index.js';
import type { BlockQuery } from '../src/contracts/world.js';
import { startEmbeddedWorld } from '../src/world/embedded/index.js';
import { botOf } from '../src/world/mineflayer/index.js';
import { parseScenario } from '../src/world/scenario/index.js';
import type { BenchResult } from './types.js';

/**
 * MineflayerWorld.findBlocks on a real bot in a generated survival world (seed 1), against the baseline of
 * mineflayer's own bot.findBlocks called as verbtree called it before (the block ids, and a second pass over
 * each candidate for an open face): the wall time of one search, median of REPEATS, and how many blocks each
 * found. The queries are the tech tree's: the stone collect_block digs (radius 48, 64 candidates), a log, the
 * iron ore, and a block that is nowhere (the whole radius searched).
 */

const REPEATS = 5;
const SEED = 1;

const QUERIES: { label: string; query: BlockQuery }[] = [
  {
    label: 'stone, 64 in the open within 48',
    query: { names: ['stone', 'deepslate'], maxDistance: 48, count: 64, exposed: true },
  },
  {
    label: 'a log in the open within 48',
    query: { names: ['oak_log', 'birch_log'], maxDistance: 48, count: 1, exposed: true },
  },
  { label: 'iron ore in the open within 48', query: { names: ['iron_ore'], maxDistance: 48, count: 8, exposed: true } },
  { label: 'a furnace (none) within 48', query: { names: ['furnace'], maxDistance: 48, count: 1 } },
];

/** The search verbtree ran before: mineflayer's bot.findBlocks with an open-face check per candidate. */
function mineflayerSearch(bot: Bot, query: BlockQuery): unknown[] {
  const ids = query.names.flatMap((name) => bot.registry.blocksByName[name]?.id ?? []);
  const open = (x: number, y: number, z: number) => bot.blockAt(new Vec3(x, y, z))?.boundingBox === 'empty';
  const exposed = ({ position: { x, y, z } }: { position: Vec3 }) =>
    open(x + 1, y, z) ||
    open(x - 1, y, z) ||
    open(x, y + 1, z) ||
    open(x, y - 1, z) ||
    open(x, y, z + 1) ||
    open(x, y, z - 1);
  return bot.findBlocks({
    matching: ids,
    maxDistance: query.maxDistance,
    count: query.count,
    ...(query.exposed ? { useExtraInfo: exposed } : {}),
  });
}

function timed(search: () => unknown[]): { ms: number; found: number } {
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now();
    found = search().length;
    times.push(performance.now() - started);
  }
  return { ms: times.sort((a, b) => a - b)[Math.floor(REPEATS / 2)]!, found };
}

export default async function findBlocksBench(): Promise<BenchResult[]> {
  const scenario = parseScenario({ name: `survival-${SEED}`, terrain: { kind: 'survival', seed: SEED } });
  const world = await startEmbeddedWorld({ clock: new SystemClock(), scenario });
  try {
    const finder = await world.connectBot('finder');
    const bot = botOf(finder);
    await bot.waitForChunksToLoad();
    const results: BenchResult[] = [];
    for (const { label, query } of QUERIES) {
      const before = timed(() => mineflayerSearch(bot, query));
      const now = timed(() => finder.findBlocks(query));
      results.push(
        {
          name: `findBlocks on a real bot: ${label}, wall time`,
          value: now.ms,
          unit: 'ms',
          baseline: before.ms,
          ratio: now.ms / before.ms,
        },
        {
          name: `findBlocks on a real bot: ${label}, blocks found`,
          value: now.found,
          unit: 'blocks',
          baseline: before.found,
        },
      );
    }
    return results;
  } finally {
    await world.stop();
  }
}
