import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { cliProcess, finished } from '../journal/cli-process.js';
import { planFor, until } from './fleet-helpers.js';
import { inventoryOf, startWorld, stopWorld, worldFiles } from './world-process.js';

/*
 * `verbtree serve` on a remote server (`verbtree world`, a process of its own) that is SIGKILLed mid-plan and started
 * again on its folder and port: the served bot joins again by itself, the success the crash undid is checked, found
 * gone and retracted as a worker's would be, and the plan under way, posted with ?wait=true, goes on in process under
 * `run --resume`'s rules: the retracted step redone once, and the plan ends verified.
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

/** A plan posted to the API, answered when it ends. */
function post(base: string, plan: object) {
  return fetch(`${base}/api/cognitive/execute?wait=true`, {
    method: 'POST',
    body: JSON.stringify(plan),
    headers: { authorization: `Bearer ${TOKEN}` },
  }).then((response) => response.json() as Promise<{ result?: { ok: boolean } }>);
}

/** A plan's steps as the API's run record shows them. */
async function stepsOf(base: string, planId: string) {
  const runs = await fetch(`${base}/api/runs/${planId}`);
  if (runs.status !== 200) return [];
  const body = (await runs.json()) as { provenance: { steps: { step: { step_id: string; status: string } }[] } };
  return body.provenance.steps.map((s) => s.step);
}

describe('verbtree serve: the game server dies and comes back', () => {
  it('SIGKILL of the server mid-plan, restarted on its folder and port: the served bot rejoins, the craft the crash undid is retracted, and the plan under way goes on to redo it once and end verified', async () => {
    const files = await worldFiles('verbtree-serve-rejoin-');
    // Saved at its start and then not for an hour: the kill loses the planks crafted before it, whatever the
    // machine's speed.
    const rarely = ['--save-every-ms', '3600000'];
    let server = await startWorld(files, 0, rarely);
    const { port } = server;
    const api = await serve(port, join(await tempDir('verbtree-serve-journal-'), 'journal.db'));
    try {
      // A craft, then one walk that may wait a minute: the server's restart and the bot's return fit in its deadline.
      const [planks, out] = planFor('verbtree', 0, 1).steps;
      const plan = {
        planId: 'craft-walk',
        intentId: 'craft-walk-intent',
        steps: [planks!, { ...out!, expectedDurationMs: 20_000 }],
      };
      const answer = post(api.base, plan);
      await until(
        'the walk in progress',
        () => stepsOf(api.base, plan.planId),
        (steps) => steps.some((s) => s.step_id === 'out' && s.status === 'in_progress'),
      );
      server.child.kill('SIGKILL');
      await server.ended;
      await until(
        'the bot said away',
        () => Promise.resolve(api.out()),
        (out) => out.includes('verbtree: the server went away'),
      );
      server = await startWorld(files, port, rarely);
      expect((await answer).result, api.out()).toMatchObject({ ok: true });
      expect(api.out()).toMatch(/verbtree: back on the server after \d+ ms away/);
      // The server said it is another process, saved before the craft: the craft is found gone and retracted, and the
      // plan goes on from it.
      expect(api.out()).toMatch(/plan craft-walk on verbtree: step planks retracted: the server restarted/);
      expect(api.out()).toMatch(/plan craft-walk on verbtree: stopped to redo what the server's restart undid/);
      expect(await stepsOf(api.base, plan.planId)).toMatchObject([
        { step_id: 'planks', status: 'succeeded' },
        { step_id: 'out', status: 'succeeded' },
      ]);
      await api.stop();
      // The journal's successes are the world's truth, and nothing was done twice: one log of the two crafted into
      // planks once, after the restart (the craft before it was lost with the world).
      expect(await inventoryOf(port, 'verbtree')).toEqual({ oak_log: 1, oak_planks: 4 });
    } finally {
      await api.stop();
      await stopWorld(server);
    }
  }, 240_000);
});
