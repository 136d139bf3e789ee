import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { structured } from '../mcp/helpers.js';
import { planFor, until } from './fleet-helpers.js';
import { inventoryOf, startWorld, stopWorld, worldFiles } from './world-process.js';

/*
 * `verbtree mcp` on a remote server (`verbtree world`, a process of its own) that is SIGKILLed after a craft and
 * started again on its folder and port, from its save before the craft: the MCP server's bot joins again by itself,
 * finds the craft gone and retracts it, and the SDK's client reads the retraction from get_run.
 */

const root = join(import.meta.dirname, '..', '..');

describe('verbtree mcp: the game server dies and comes back', () => {
  it('the craft the crash undid is retracted, and get_run says it no longer holds', async () => {
    const files = await worldFiles('verbtree-mcp-rejoin-');
    // Saved at its start and then not for an hour: the kill loses the craft, whatever the machine's speed.
    const rarely = ['--save-every-ms', '3600000'];
    let server = await startWorld(files, 0, rarely);
    const { port } = server;
    const journal = join(await tempDir('verbtree-mcp-journal-'), 'journal.db');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', join(root, 'test', 'journal', 'run-cli.ts'), 'mcp'].concat([
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--journal',
        journal,
      ]),
      cwd: root,
      env: { ...process.env } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'rejoin', version: '1.0.0' });
    await client.connect(transport);
    try {
      const crafted = { ...planFor('verbtree', 0, 1), steps: planFor('verbtree', 0, 1).steps.slice(0, 1) };
      const ran = await client.callTool({ name: 'run_plan', arguments: { plan: crafted } }, undefined, {
        timeout: 120_000,
      });
      expect(structured(ran), stderr).toMatchObject({ status: 'succeeded' });

      server.child.kill('SIGKILL');
      await server.ended;
      await until(
        'the bot said away',
        () => Promise.resolve(stderr),
        (err) => err.includes('the server went away'),
      );
      server = await startWorld(files, port, rarely);
      await until(
        'the re-check',
        () => Promise.resolve(stderr),
        (err) => /\d+ retracted, \d+ held/.test(err),
      );

      expect(stderr).toMatch(/plan verbtree-p1 on verbtree: step planks retracted: the server restarted/);
      const run = await client.callTool({ name: 'get_run', arguments: { planId: crafted.planId } });
      expect(structured(run), stderr).toMatchObject({ retracted: [{ stepId: 'planks' }] });
      await client.close();
      // The journal's successes are the world's truth: the logs the retracted craft used are back, no planks.
      expect(await inventoryOf(port, 'verbtree')).toEqual({ oak_log: 2 });
    } finally {
      await client.close();
      await stopWorld(server);
    }
  }, 180_000);
});
