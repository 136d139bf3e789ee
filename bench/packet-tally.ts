import { crowdMovesReadDirectly, type CrowdMoveCounts } from '../src/world/mineflayer/crowd-moves.js';
import { botOf, type MineflayerWorld } from '../src/world/mineflayer/index.js';
import type { BenchResult } from './types.js';

/** How many of the kinds each bot received most are reported one by one; the rest are summed. */
const TOP_KINDS = 8;

interface PacketClient {
  on(event: 'packet', listener: (data: unknown, meta: { name: string }, buffer: Buffer) => void): void;
  removeListener(event: 'packet', listener: (...args: never[]) => void): void;
}

/**
 * Counts the packets every bot of a fleet receives, by kind, from `start()` to `stop()`: what the server sends each
 * bot, which is what each bot parses. A kind whose rate per bot grows with the number of bots is a cost that grows
 * with the square of the fleet. The crowd's moves a bot reads straight off the bytes (crowd-moves.ts) raise no
 * 'packet' event: they are counted from what it read between `start()` and `stop()`.
 */
export class PacketTally {
  private readonly counts = new Map<string, { packets: number; bytes: number }>();
  private readonly detach: (() => void)[] = [];
  /** Each bot's direct reads at `start()`, to count only what comes after. */
  private readonly directAtStart = new Map<MineflayerWorld, CrowdMoveCounts>();
  private startedAt = 0;
  private seconds = 0;

  constructor(private readonly fleet: readonly MineflayerWorld[]) {}

  start(): void {
    this.startedAt = performance.now();
    for (const world of this.fleet) {
      const direct = crowdMovesReadDirectly(botOf(world));
      if (direct) this.directAtStart.set(world, structuredClone(direct));
      const client = (world.bot as unknown as { _client: PacketClient })._client;
      const listener = (_data: unknown, meta: { name: string }, buffer: Buffer) =>
        this.add(meta.name, 1, buffer.length);
      client.on('packet', listener);
      this.detach.push(() => client.removeListener('packet', listener));
    }
  }

  stop(): void {
    this.seconds = (performance.now() - this.startedAt) / 1000;
    for (const detach of this.detach.splice(0)) detach();
    for (const [world, before] of this.directAtStart) {
      for (const [kind, now] of Object.entries(crowdMovesReadDirectly(botOf(world))!)) {
        const was = before[kind as keyof CrowdMoveCounts];
        this.add(kind, now.packets - was.packets, now.bytes - was.bytes);
      }
    }
  }

  private add(kind: string, packets: number, bytes: number): void {
    const count = this.counts.get(kind) ?? { packets: 0, bytes: 0 };
    count.packets += packets;
    count.bytes += bytes;
    this.counts.set(kind, count);
  }

  /** Packets (and kB) per bot per second: all kinds, then the most frequent kinds, then the rest. */
  results(label: string): BenchResult[] {
    const perBotSecond = (n: number) => n / this.fleet.length / this.seconds;
    const kinds = [...this.counts.entries()].sort(([, a], [, b]) => b.packets - a.packets);
    const total = kinds.reduce((sum, [, count]) => sum + count.packets, 0);
    const bytes = kinds.reduce((sum, [, count]) => sum + count.bytes, 0);
    const rest = kinds.slice(TOP_KINDS).reduce((sum, [, count]) => sum + count.packets, 0);
    return [
      { name: `${label}: packets received per bot, whole phase`, value: total / this.fleet.length, unit: 'packets' },
      { name: `${label}: packets received per bot per second`, value: perBotSecond(total), unit: 'packets/s' },
      { name: `${label}: bytes received per bot per second`, value: perBotSecond(bytes) / 1024, unit: 'kB/s' },
      ...kinds.slice(0, TOP_KINDS).map(([kind, count]) => ({
        name: `${label}: ${kind} packets per bot per second`,
        value: perBotSecond(count.packets),
        unit: 'packets/s',
        baseline: perBotSecond(total),
        ratio: count.packets / total,
      })),
      {
        name: `${label}: other kinds' packets per bot per second (${Math.max(0, kinds.length - TOP_KINDS)} kinds)`,
        value: perBotSecond(rest),
        unit: 'packets/s',
        baseline: perBotSecond(total),
        ratio: total > 0 ? rest / total : 0,
      },
    ];
  }
}
