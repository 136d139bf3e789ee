import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG, userProject, WAVE_PLAN } from '../helpers/user-project.js';

const CLI = fileURLToPath(new URL('../journal/run-cli.ts', import.meta.url));
const TSX = pathToFileURL(fileURLToPath(new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url))).href;

describe('verbtree serve in a project', () => {
  it("serves the project's verb, on its world, journal and token variable from the config", async () => {
    const config = CONFIG.replace('};', "  journal: './state/journal.db',\n  api: { tokenEnv: 'WAVE_TOKEN' },\n};");
    const { dir, sub } = await userProject({ 'verbtree.config.mjs': config });
    const { VERBTREE_TOKEN: _ignored, ...env } = process.env;
    const child = spawn(process.execPath, ['--import', TSX, CLI, 'serve', '--port', '0'], {
      cwd: sub,
      env: { ...env, WAVE_TOKEN: 'wave-secret' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const banner = String((await lines.next()).value);
      expect(banner, err).toContain(
        `(journal ${join(dir, 'state/journal.db')}; SimWorld (seed 3); control enabled with a bearer token)`,
      );
      const url = /http:\/\/[\d.:]+/.exec(banner)![0];
      const capabilities = JSON.stringify(await (await fetch(`${url}/api/capabilities`)).json());
      expect(capabilities).toContain('"wave"');
      const executed = await fetch(`${url}/api/cognitive/execute?wait=true`, {
        method: 'POST',
        body: JSON.stringify(WAVE_PLAN),
        headers: { authorization: 'Bearer wave-secret' },
      });
      const result = JSON.stringify(await executed.json());
      expect(executed.status, result).toBe(200);
      expect(result).toContain('"ok":true');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 30_000);
});
