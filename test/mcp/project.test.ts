import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { CONFIG, userProject, WAVE_PLAN } from '../helpers/user-project.js';
import { structured } from './helpers.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'verbtree.js');

describe('verbtree mcp in a project', () => {
  it("serves the project's own verb as a tool, on the config's world, journal and token variable", async () => {
    const config = CONFIG.replace('};', "  journal: './state/journal.db',\n  api: { tokenEnv: 'WAVE_TOKEN' },\n};");
    const { dir, sub } = await userProject({ 'verbtree.config.mjs': config });
    const env: NodeJS.ProcessEnv = { ...process.env, WAVE_TOKEN: 'wave-secret' };
    delete env.VERBTREE_TOKEN;
    const child = spawn(process.execPath, [BIN, 'mcp', '--http', '0'], {
      cwd: sub,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const banner = String((await createInterface({ input: child.stderr })[Symbol.asyncIterator]().next()).value);
      expect(banner).toContain(`SimWorld (seed 3); bots verbtree; journal ${join(dir, 'state/journal.db')}`);
      const url = new URL(/http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(banner)![0]);
      const client = new Client({ name: 'project', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer wave-secret' } } }),
      );
      const wave = (await client.listTools()).tools.find((t) => t.name === 'wave');
      expect(wave?.inputSchema.properties).toHaveProperty('spot');
      const waved = await client.callTool({ name: 'wave', arguments: WAVE_PLAN.steps[0]!.args });
      expect(structured(waved)).toMatchObject({ status: 'succeeded', steps: [{ stepId: 'wave', verb: 'wave' }] });
      await client.close();
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
