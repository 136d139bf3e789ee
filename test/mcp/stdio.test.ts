import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { SqliteJournal } from '../../src/journal/sqlite/sqlite-journal.js';
import { stepFields, tempJournalPath } from '../journal/helpers.js';
import { structured } from './helpers.js';

const root = join(import.meta.dirname, '..', '..');
const BIN = join(root, 'bin', 'verbtree.js');
/** A stray print on SIGUSR2, as a dependency's console.log would be: it must reach stderr, never the JSON-RPC stream. */
const STRAY = 'data:text/javascript,process.on("SIGUSR2",()=>console.log("a stray print"))';

interface Step {
  stepId: string;
  type: string;
  args: Record<string, unknown>;
}

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'src', 'mcp', 'server.js')))
    throw new Error('the compiled CLI lacks the MCP server: run `npm run build` first');
});

describe('verbtree mcp over stdio, on the embedded server', () => {
  it('drives the acquire-wood worked example tool by tool, and a call past its timeout cancels its run; every line on stdout is JSON-RPC', async () => {
    const journalPath = tempJournalPath();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', STRAY, BIN, 'mcp', '--scenario', 'examples/scenarios/forest.json', '--journal', journalPath],
      cwd: root,
      env: { ...process.env } as Record<string, string>,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'acquire-wood', version: '1.0.0' });
    // Every stdout line goes through the SDK's JSON-RPC parser; anything else (a prompt, a print) lands here.
    const notJsonRpc: Error[] = [];
    client.onerror = (error) => void notJsonRpc.push(error);
    await client.connect(transport);
    try {
      const worked = JSON.parse(readFileSync(join(root, 'examples', 'acquire-wood.plan.json'), 'utf8')) as {
        steps: Step[];
      };
      const tools = (await client.listTools()).tools.map((t) => t.name);
      for (const step of worked.steps) {
        expect(tools).toContain(step.type);
        const result = await client.callTool({ name: step.type, arguments: step.args }, undefined, {
          timeout: 120_000,
        });
        expect(result.isError, JSON.stringify(result.structuredContent)).toBeUndefined();
        const done = structured(result);
        expect(done.status).toBe('succeeded');
        // The verb's own step, verified (sub-goals it ran, such as a crafting table, are listed before it).
        expect(done.steps).toContainEqual(expect.objectContaining({ stepId: step.type, verb: step.type }));
      }
      const seen = structured(await client.callTool({ name: 'observe', arguments: {} }));
      expect((seen.inventory as Record<string, number>).oak_log).toBeGreaterThanOrEqual(1);
      expect((seen.inventory as Record<string, number>).stone_axe).toBe(1);
      // The client's own timeout cancels the call, and so the run: the real bot stops, its step ends aborted.
      const far = {
        planId: 'too-far',
        intentId: 'i',
        steps: [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'xz', x: 200, z: 200 } } }],
      };
      const timedOut = await client
        .callTool({ name: 'run_plan', arguments: { plan: far } }, undefined, { timeout: 3_000 })
        .catch((error: unknown) => error);
      expect(String(timedOut)).toContain('Request timed out');
      const ended = structured(
        await client.callTool({ name: 'get_run', arguments: { planId: 'too-far', waitMs: 20_000 } }),
      );
      expect(ended).toMatchObject({ status: 'cancelled', code: 'aborted', stepId: 'walk' });
      process.kill(transport.pid!, 'SIGUSR2');
      await expect.poll(() => stderr, { timeout: 10_000 }).toContain('a stray print');
      expect((await client.listTools()).tools.length).toBe(tools.length);
    } finally {
      await client.close();
    }
    expect(notJsonRpc).toEqual([]);
    expect(stderr).toContain('verbtree mcp: serving MCP over stdio; embedded flying-squid');
    // Each tool call was journaled as a plan of its own: four ended ok, and the one past its timeout reads cancelled,
    // as get_run and cancel_run say (its step ends aborted).
    const journal = SqliteJournal.open(journalPath, { mustExist: true });
    try {
      const runs = (await journal.listRuns(100)).reverse();
      expect(runs.map((r) => r.plan_status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'cancelled']);
      expect(await stepFields(journal, 'too-far', 'outcome_code')).toEqual([{ outcome_code: 'aborted' }]);
      // The client closing stdin stopped the server cleanly (not killed after the SDK's 2 s grace): one runner ran
      // every plan, and it is stopped.
      expect(new Set(runs.map((r) => r.runner_pid)).size).toBe(1);
      expect(runs.map((r) => r.runner_status)).toEqual(runs.map(() => 'stopped'));
    } finally {
      await journal.close();
    }
  }, 180_000);
});
