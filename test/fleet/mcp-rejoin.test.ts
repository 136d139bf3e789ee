import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';
import { structured } from '../mcp/helpers.js';
import { planFor, until } from './fleet-helpers.js';
import { inventoryOf, startWorld, stopWorld, worldFiles } from './world-process.js';

/*
 * `verbtree mcp` on a remote server (`verbtree world`, a process of its own) that is SIGKILLed mid-plan, after the
 * plan's craft, and started again on its folder and port, from its save before the craft: the MCP server's bot joins
 * again by itself, finds the craft gone and retracts it, and the plan under way goes on in process under `run
 * --resume`'s rules: the SDK's client reads from get_run that it ended verified, the craft redone once.
 */

const root = join(import.meta.dirname, '..', '..');

describe('verbtree mcp: the game server dies and comes back', () => {
  it('the craft the crash undid is retracted, and the plan under way redoes it once and ends verified in get_run', async () => {
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
      // A craft, then one walk that may wait a minute: the server's restart and the bot's return fit in its deadline.
      const [planks, out] = planFor('verbtree', 0, 1).steps;
      const plan = {
        planId: 'craft-walk',
        intentId: 'craft-walk-intent',
        steps: [planks!, { ...out!, expectedDurationMs: 20_000 }],
      };
      const started = await client.callTool({ name: 'start_plan', arguments: { plan } });
      expect(structured(started), stderr).toMatchObject({ status: 'started' });
      const getRun = async (waitMs: number) =>
        structured(
          await client.callTool({ name: 'get_run', arguments: { planId: plan.planId, waitMs } }, undefined, {
            timeout: 120_000,
          }),
        ) as { status: string; steps?: { stepId: string; status: string }[] };
      await until(
        'the walk in progress',
        () => getRun(0),
        (run) => run.steps?.some((s) => s.stepId === 'out' && s.status === 'running') ?? false,
      );

      server.child.kill('SIGKILL');
      await server.ended;
      await until(
        'the bot said away',
        () => Promise.resolve(stderr),
        (err) => err.includes('the server went away'),
      );
      server = await startWorld(files, port, rarely);
      const ended = await until(
        'the plan ended',
        () => getRun(60_000),
        (run) => run.status !== 'running',
        120_000,
      );

      expect(ended, stderr).toMatchObject({
        status: 'succeeded',
        steps: [{ stepId: 'planks' }, { stepId: 'out' }],
      });
      expect(stderr).toMatch(/plan craft-walk on verbtree: step planks retracted: the server restarted/);
      expect(stderr).toMatch(/plan craft-walk on verbtree: stopped to redo what the server's restart undid/);
      await client.close();
      // The journal's successes are the world's truth, and nothing was done twice: one log of the two crafted into
      // planks once, after the restart (the craft before it was lost with the world).
      expect(await inventoryOf(port, 'verbtree')).toEqual({ oak_log: 1, oak_planks: 4 });
    } finally {
      await client.close();
      await stopWorld(server);
    }
  }, 180_000);
});
