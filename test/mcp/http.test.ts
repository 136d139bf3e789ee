import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { tempJournalPath } from '../journal/helpers.js';

const root = join(import.meta.dirname, '..', '..');
const BIN = join(root, 'bin', 'verbtree.js');

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
});

/** A raw POST, so that the Host header is ours to set (fetch sets its own). */
function post(url: URL, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

describe('verbtree mcp --http', () => {
  it('is refused without a token at start', async () => {
    const saved = process.env.VERBTREE_TOKEN;
    delete process.env.VERBTREE_TOKEN;
    try {
      const { code, err } = await cli('mcp', '--world', 'sim', '--http', '0', '--journal', tempJournalPath());
      expect(code).toBe(2);
      expect(err).toContain('--http needs a bearer token');
    } finally {
      if (saved !== undefined) process.env.VERBTREE_TOKEN = saved;
    }
  });

  it('serves 127.0.0.1 behind the token: no token and a foreign Host are refused, the token lists the tools', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'mcp', '--world', 'sim', '--http', '0', '--token', 'sesame', '--journal', tempJournalPath()],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const lines = createInterface({ input: child.stderr })[Symbol.asyncIterator]();
      const banner = String((await lines.next()).value);
      const url = new URL(/http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(banner)![0]);

      const noToken = await post(url, {});
      expect(noToken.status).toBe(401);
      expect(noToken.body).toContain('missing bearer token');
      const wrongToken = await post(url, { authorization: 'Bearer open' });
      expect(wrongToken.status).toBe(401);
      // A page of another site rebinding its name to 127.0.0.1: the Host is not ours.
      const rebound = await post(url, { authorization: 'Bearer sesame', host: `evil.example:${url.port}` });
      expect(rebound.status).toBe(403);
      const { error } = JSON.parse(rebound.body) as { error: { message: string } };
      expect(error.message).toContain('Host "evil.example');
      const foreignPage = await post(url, { authorization: 'Bearer sesame', origin: 'https://evil.example' });
      expect(foreignPage.status).toBe(403);

      const client = new Client({ name: 'http-probe', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer sesame' } } }),
      );
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['navigate', 'collect_block', 'run_plan', 'get_run', 'list_bots']));
      const bots = await client.callTool({ name: 'list_bots', arguments: {} });
      expect(bots.structuredContent).toMatchObject({ bots: [{ bot: 'verbtree', kind: 'sim' }] });
      await client.close();
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
