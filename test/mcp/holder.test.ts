import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer, type EmbeddedServer } from '../../src/world/embedded/index.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import { tempJournalPath } from '../journal/helpers.js';
import { structured } from './helpers.js';

const root = join(import.meta.dirname, '..', '..');
const BIN = join(root, 'bin', 'verbtree.js');

/** A server verbtree did not start, reached by --host as an LLM client's configuration would name it. */
let server: EmbeddedServer;
beforeAll(async () => {
  server = await startEmbeddedServer({ scenario: parseScenario({ name: 'shared' }) });
});
afterAll(async () => {
  await server.stop();
});

/** `verbtree mcp` run to its end with stdin left open (as an MCP client holds it): its exit code and output. */
function runToExit(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('one bot, one holder', () => {
  it('a second verbtree mcp for a bot another one drives is refused naming the holder; the first bot stays on', async () => {
    const journal = tempJournalPath();
    const remote = ['--host', server.host, '--port', String(server.port), '--journal', journal];
    const first = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', ...remote, '--username', 'keeper'],
      cwd: root,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'first', version: '1.0.0' });
    await client.connect(first);
    try {
      const bots = async () => structured(await client.callTool({ name: 'list_bots', arguments: {} })).bots;
      expect(await bots()).toMatchObject([{ bot: 'keeper', kind: 'mineflayer', connected: true }]);

      const second = await runToExit([...remote, '--username', 'keeper']);
      expect(second.code).toBe(2);
      expect(second.stdout).toBe('');
      expect(second.stderr).toContain(
        `bot "keeper" on ${server.host}:${server.port} is already driven by pid ${first.pid} on `,
      );
      expect(second.stderr).toContain('(verbtree mcp, since ');
      // The first bot was never kicked: the second never connected.
      expect(await bots()).toMatchObject([{ bot: 'keeper', connected: true }]);

      // Another bot on the same server is another holder.
      const other = spawn(process.execPath, [BIN, 'mcp', ...remote, '--username', 'visitor'], {
        cwd: root,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => other.on('exit', (code) => resolve(code)));
      const banner = String((await createInterface({ input: other.stderr })[Symbol.asyncIterator]().next()).value);
      expect(banner).toContain('bots visitor;');
      other.stdin.end();
      expect(await exited).toBe(0);
    } finally {
      await client.close();
    }
    // Released at its end: the bot can be driven again.
    const again = spawn(process.execPath, [BIN, 'mcp', ...remote, '--username', 'keeper'], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => again.on('exit', (code) => resolve(code)));
    const banner = String((await createInterface({ input: again.stderr })[Symbol.asyncIterator]().next()).value);
    expect(banner).toContain('bots keeper;');
    again.stdin.end();
    expect(await exited).toBe(0);
  }, 90_000);
});
