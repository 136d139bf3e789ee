import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { cliProcess, finished } from '../journal/cli-process.js';
import { planFor, until } from './fleet-helpers.js';
import { inventoryOf, startWorld, stopWorld, worldFiles } from './world-process.js';

/*
 * `verbtree serve` on a remote server (`verbtree world`, a process of its own) that is SIGKILLed mid-plan and started
 * again on its folder and port: the served bot joins again by itself, the plan under way, posted with ?wait=true,
 * ends verified, and the success the crash undid is checked, found gone and retracted as a worker's would be.
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
  it('SIGKILL of the server mid-plan, restarted on its folder and port: the served bot rejoins, the plan under way ends verified, and the craft the crash undid is retracted in the API', async () => {
    const files = await worldFiles('verbtree-serve-rejoin-');
    // Saved at its start and then not for an hour: the kill loses the planks crafted before it, whatever the
    // machine's speed.
    const rarely = ['--save-every-ms', '3600000'];
    let server = await startWorld(files, 0, rarely);
    const { port } = server;
    const api = await serve(port, join(await tempDir('verbtree-serve-journal-'), 'journal.db'));
    try {
      const crafted = { ...planFor('verbtree', 0, 1), steps: planFor('verbtree', 0, 1).steps.slice(0, 1) };
      expect((await post(api.base, crafted)).result, api.out()).toMatchObject({ ok: true });
      // One walk, that may wait a minute: the server's restart and the bot's return fit in its deadline. (A success
      // of a plan under way that the crash undid cancels the plan: serve has no queue to resume it from.)
      const [out] = planFor('verbtree', 0, 2).steps.filter((step) => step.stepId === 'out');
      const walk = { planId: 'walk', intentId: 'walk-intent', steps: [{ ...out!, expectedDurationMs: 20_000 }] };
      const answer = post(api.base, walk);
      await until(
        'the walk in progress',
        () => stepsOf(api.base, walk.planId),
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
      // The server said it is another process, saved before the craft: the craft is found gone and retracted.
      expect(api.out()).toMatch(/plan verbtree-p1 on verbtree: step planks retracted: the server restarted/);
      expect(await stepsOf(api.base, crafted.planId)).toMatchObject([{ step_id: 'planks', status: 'retracted' }]);
      await api.stop();
      // The journal's successes are the world's truth: the logs the retracted craft used are back, no planks.
      expect(await inventoryOf(port, 'verbtree')).toEqual({ oak_log: 2 });
    } finally {
      await api.stop();
      await stopWorld(server);
    }
  }, 240_000);
});
