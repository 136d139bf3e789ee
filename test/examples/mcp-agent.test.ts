import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempJournalPath } from '../journal/helpers.js';

const root = join(import.meta.dirname, '..', '..');

/*
 * examples/mcp-agent as a user runs it: a scripted agent that knows only MCP tools reaches a stone pickaxe on the
 * embedded server through `verbtree mcp` over stdio (the compiled CLI: `npm run build` first).
 */
describe('the MCP agent example', () => {
  it('reaches a stone pickaxe through MCP tools alone, each step answered ok with what was verified', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'examples', 'mcp-agent', 'agent.ts'), '--journal', tempJournalPath()],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code, `${out}\n${err}`).toBe(0);
    expect(out).toMatch(/✓ stone_pickaxe in the pack \(1\), as the world holds it/);
    for (const verified of ['the pack holds at least 4 of oak_log', 'the pack holds at least 1 stone_pickaxe'])
      expect(out).toContain(verified);
    // The server logged to stderr only, and stopped when the agent closed its stdin.
    expect(err).toContain('verbtree mcp: serving MCP over stdio; embedded flying-squid');
    expect(err).toContain('stopping (the client closed standard input)');
  }, 300_000);
});
