/**
 * Measures the embedded world's latencies: server start, first bot spawn, and
 * the time from a goto command to the bot's first movement.
 * Run: npx tsx src/world/embedded/measure.ts [rounds]
 */
import { performance } from 'node:perf_hooks';
import { parseScenario } from '../scenario/index.js';
import { startEmbeddedWorld } from './embedded-world.js';
import { botOf } from '../mineflayer/bot-of.js';

interface Figures {
  serverStartMs: number[];
  firstSpawnMs: number[];
  gotoToFirstMoveMs: number[];
}

async function measure(rounds: number): Promise<Figures> {
  const figures: Figures = { serverStartMs: [], firstSpawnMs: [], gotoToFirstMoveMs: [] };
  const scenario = parseScenario({ name: 'measure' });
  for (let round = 0; round < rounds; round++) {
    const startedAt = performance.now();
    const world = await startEmbeddedWorld({ scenario });
    figures.serverStartMs.push(performance.now() - startedAt);
    const connectingAt = performance.now();
    const bot = await world.connectBot('measure');
    figures.firstSpawnMs.push(performance.now() - connectingAt);
    for (const x of [6, 0]) {
      const from = botOf(bot).entity.position.clone();
      const commandedAt = performance.now();
      const firstMove = new Promise<number>((resolve) => {
        const onMove = () => {
          if (botOf(bot).entity.position.distanceTo(from) < 0.01) return;
          botOf(bot).removeListener('move', onMove);
          resolve(performance.now() - commandedAt);
        };
        botOf(bot).on('move', onMove);
      });
      const walk = bot.goto({ kind: 'xz', x, z: 0 });
      figures.gotoToFirstMoveMs.push(await firstMove);
      await walk;
    }
    await world.stop();
  }
  return figures;
}

function summary(values: number[]): { p50: number; max: number; n: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 10) / 10;
  return { p50: round(sorted[Math.floor((sorted.length - 1) / 2)]!), max: round(sorted.at(-1)!), n: sorted.length };
}

const rounds = Number(process.argv[2] ?? 5);
const figures = await measure(rounds);
console.log(
  JSON.stringify(
    {
      serverStartMs: summary(figures.serverStartMs),
      firstSpawnMs: summary(figures.firstSpawnMs),
      gotoToFirstMoveMs: summary(figures.gotoToFirstMoveMs),
      note: 'the first round includes loading flying-squid and mineflayer',
    },
    null,
    2,
  ),
);
