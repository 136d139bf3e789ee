import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { tempJournalPath } from '../journal/helpers.js';

const root = join(import.meta.dirname, '..', '..');

describe('verbtree serve', () => {
  it('serves on loopback with the token from VERBTREE_TOKEN and stops cleanly on SIGTERM', async () => {
    const journal = tempJournalPath();
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test', 'journal', 'run-cli.ts'), 'serve', '--port', '0', '--journal', journal, '--scenario', 'examples/scenarios/forest.json'], {
      cwd: root,
      env: { ...process.env, VERBTREE_TOKEN: 'from-env' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const banner = String((await lines.next()).value);
    expect(banner, err).toMatch(/^verbtree API on http:\/\/127\.0\.0\.1:\d+ \(journal .+; SimWorld \(seed 1, scenario forest\); control enabled with a bearer token\)$/);
    const url = /http:\/\/[\d.:]+/.exec(banner)![0];

    const bot = await (await fetch(`${url}/api/bot/status`)).json();
    expect(bot).toMatchObject({ attached: true, kind: 'sim', position: { x: 0.5, y: 5, z: 0.5 } });
    const health = (await (await fetch(`${url}/api/health`)).json()) as { health: { status: string } };
    expect(health.health.status).toBe('healthy');
    const denied = await fetch(`${url}/api/cognitive/execute`, { method: 'POST', body: '{}', headers: { authorization: 'Bearer nope' } });
    expect(denied.status).toBe(401);
    const invalid = await fetch(`${url}/api/cognitive/execute`, { method: 'POST', body: '{}', headers: { authorization: 'Bearer from-env' } });
    expect(invalid.status).toBe(422);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(String((await lines.next()).value)).toBe('stopping on SIGTERM');
  }, 20_000);
});
