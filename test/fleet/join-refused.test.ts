import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { JoinGate, joinAsBot } from '../../src/cli/worker/join.js';
import { startEmbeddedServer, type EmbeddedServer } from '../../src/world/embedded/index.js';

/*
 * A worker's bot whose first join finds its game server down (a refused connection, real, on a port nothing listens
 * on): it waits for the server with backoff on the injectable clock, its status says what it waits for, and it joins
 * when the server comes. Before, the refusal failed the join, the bot was fenced and claimed again every 2 s.
 */

/** A gate that counts each try of the join and each refusal, so the test knows when a try has come back. */
class CountingGate extends JoinGate {
  tries = 0;
  refused = 0;
  override async run<T>(join: () => Promise<T>, cancel: AbortSignal): Promise<T> {
    this.tries++;
    return super.run(join, cancel).catch((error: unknown) => {
      this.refused++;
      throw error;
    });
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Yields to I/O until `done` (a refusal from the local network stack comes back within milliseconds). */
async function ioUntil(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

let server: EmbeddedServer | undefined;
afterAll(() => server?.stop());

describe('a worker joining a game server that is down', () => {
  it('waits with backoff, says it waits for host:port, and joins when the server comes', async () => {
    const port = await freePort();
    const clock = new ManualClock();
    const gate = new CountingGate(1);
    const said: string[] = [];
    const statuses: (string | null)[] = [];
    const cancel = new AbortController();
    const joining = joinAsBot({ world: 'remote', host: '127.0.0.1', port, seed: 1 }, 'early', {
      clock,
      retryEveryMs: 2_000,
      cancel: cancel.signal,
      gate,
      say: (line) => said.push(line),
      waiting: (status) => statuses.push(status),
    });
    let failed: unknown = null;
    joining.catch((error: unknown) => (failed = error));
    try {
      await ioUntil(() => gate.refused === 1);
      expect(statuses).toEqual([`waiting for the game server at 127.0.0.1:${port}`]);
      expect(said.join('\n')).toMatch(/early: waiting for the game server at 127\.0\.0\.1:\d+ \(.*ECONNREFUSED/);
      // Backoff: 250 ms, then 500, then 1000, then 2000 (its cap) between tries.
      for (const waitMs of [250, 500, 1_000, 2_000, 2_000]) {
        const tries = gate.tries;
        await clock.advance(waitMs - 1);
        expect(gate.tries, `before ${waitMs} ms`).toBe(tries);
        await clock.advance(1);
        await ioUntil(() => gate.refused === tries + 1 || failed !== null);
        expect(failed).toBeNull();
      }
      expect(said.filter((line) => line.includes('waiting for'))).toHaveLength(1);

      server = await startEmbeddedServer({ port });
      await clock.advance(2_000);
      const joined = await joining;
      expect(joined.world.isConnected()).toBe(true);
      expect(statuses.at(-1)).toBeNull();
      await joined.close();
    } finally {
      cancel.abort();
    }
  }, 60_000);
});
