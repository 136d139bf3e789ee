import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { cliProcess, finished } from '../journal/cli-process.js';
import { planFor, until } from './fleet-helpers.js';
import { inventoryOf, startWorld, stopWorld, worldFiles } from './world-process.js';

/*
 * `verbtree serve` on a remote server (`verbtree world`, a process of its own) that is SIGKILLed mid-plan and started
 * again on its folder and port: the served bot joins again by itself and the plan, posted with ?wait=true, ends
 * verified with each craft done once.
 */

const TOKEN = 'rejoin-token';

async function serve(port: number, journal: string) {
  const child = cliProcess([
    'serve',
    ...['--server-host', '127.0.0.1', '--server-port', String(port), '--journal', journal],
    ...['--port', '0', '--token', TOKEN, '--health-interval', '0'],
  ]);
  const ended = finished(child);
  let printed = '';
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => (printed += `${line}\n`));
  const base = await until(
    'the API listening',
    () => Promise.resolve(/verbtree API on (http:\/\/\S+) /.exec(printed)?.[1] ?? null),
    (url) => url !== null,
    60_000,
  );
  return { base: base!, out: () => printed, stop: () => (child.kill('SIGTERM'), ended) };
}

describe('verbtree serve: the game server dies and comes back', () => {
  it('SIGKILL of the server mid-plan, restarted on its folder and port: the served bot rejoins and the plan ends verified, each craft once', async () => {
    const files = await worldFiles('verbtree-serve-rejoin-');
    let server = await startWorld(files, 0);
    const { port } = server;
    const api = await serve(port, join(await tempDir('verbtree-serve-journal-'), 'journal.db'));
    try {
      // Each step may wait a minute: the server's restart and the bot's return fit in its deadline.
      const base = planFor('verbtree', 0, 1);
      const plan = { ...base, steps: base.steps.map((step) => ({ ...step, expectedDurationMs: 20_000 })) };
      const answer = fetch(`${api.base}/api/cognitive/execute?wait=true`, {
        method: 'POST',
        body: JSON.stringify(plan),
        headers: { authorization: `Bearer ${TOKEN}` },
      }).then((response) => response.json() as Promise<{ result?: { ok: boolean } }>);
      await until(
        'the walk in progress',
        async () => {
          const runs = await fetch(`${api.base}/api/runs/${plan.planId}`);
          if (runs.status !== 200) return [];
          const body = (await runs.json()) as {
            provenance: { steps: { step: { step_id: string; status: string } }[] };
          };
          return body.provenance.steps.map((s) => s.step);
        },
        (steps) => steps.some((s) => s.step_id === 'out' && s.status === 'in_progress'),
      );
      server.child.kill('SIGKILL');
      await server.ended;
      await until(
        'the bot said away',
        () => Promise.resolve(api.out()),
        (out) => out.includes('verbtree: the server went away'),
      );
      server = await startWorld(files, port);
      expect((await answer).result, api.out()).toMatchObject({ ok: true });
      expect(api.out()).toMatch(/verbtree: back on the server after \d+ ms away/);
      await api.stop();
      // One log made 4 planks, two of them 4 sticks: once each, and both hold in the restarted world.
      expect(await inventoryOf(port, 'verbtree')).toEqual({ oak_log: 1, oak_planks: 2, stick: 4 });
    } finally {
      await api.stop();
      await stopWorld(server);
    }
  }, 240_000);
});
