import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer, type EmbeddedServer } from '../../src/world/embedded/index.js';
import { tempJournalPath } from '../journal/helpers.js';

const root = join(import.meta.dirname, '..', '..');

/** A server the CLI did not start: reached only through --server-host and --server-port, as a user's own would be. */
let server: EmbeddedServer;
beforeAll(async () => {
  server = await startEmbeddedServer();
});
afterAll(async () => {
  await server.stop();
});

/** Waits (at most 5 s) for the server, a separate party, to come to hold what the test then asserts. */
async function until(holds: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !holds(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe('verbtree serve --world remote', () => {
  it('drives --bots 2 on a server the user runs, named as serve names them; a plan is verified there; SIGTERM leaves it', async () => {
    const child = spawn(
      process.execPath,
      [
        ...['--import', 'tsx', join(root, 'test', 'journal', 'run-cli.ts'), 'serve', '--port', '0'],
        ...['--journal', tempJournalPath(), '--world', 'remote', '--bots', '2'],
        ...['--server-host', server.host, '--server-port', String(server.port)],
      ],
      { cwd: root, env: { ...process.env, VERBTREE_TOKEN: 'remote' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const banner = String((await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next()).value);
      expect(banner, err).toContain(
        `server ${server.host}:${server.port} (Minecraft 1.21.4), bot verbtree and 1 more bot(s) (verbtree-2)`,
      );
      expect(server.playerNames().sort()).toEqual(['verbtree', 'verbtree-2']);
      const url = /http:\/\/[\d.:]+/.exec(banner)![0];
      const listed = (await (await fetch(`${url}/api/bots`)).json()) as {
        bots: { bot: string; kind: string; connected: boolean; state: string }[];
      };
      expect(listed.bots.map((b) => [b.bot, b.kind, b.connected, b.state])).toEqual([
        ['verbtree', 'mineflayer', true, 'IDLE'],
        ['verbtree-2', 'mineflayer', true, 'IDLE'],
      ]);

      const walked = (await (
        await fetch(`${url}/api/cognitive/execute?wait=true&bot=verbtree-2`, {
          method: 'POST',
          headers: { authorization: 'Bearer remote' },
          body: JSON.stringify({
            planId: 'walk-on-their-server',
            intentId: 'i',
            steps: [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 4, y: 5, z: 3 } } }],
          }),
        })
      ).json()) as { success: boolean; bot: string };
      expect(walked).toMatchObject({ success: true, bot: 'verbtree-2' });
      // Where the server itself holds each player: the second bot walked, the first stayed at spawn. The bot's last
      // steps reach the server a moment after the bot stands there, so the server is given a moment to hear them.
      const cell = (name: string) => {
        const { x, z } = server.player(name)!.position;
        return [Math.floor(x), Math.floor(z)];
      };
      await until(() => cell('verbtree-2')[0] === 4);
      expect(cell('verbtree-2')).toEqual([4, 3]);
      expect(cell('verbtree')).toEqual([0, 0]);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited, err).toBe(0);
    // Both bots left the server with the process: none is left standing in the user's world.
    await until(() => server.playerNames().length === 0);
    expect(server.playerNames()).toEqual([]);
  }, 60_000);
});
