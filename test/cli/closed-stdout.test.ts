import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../journal/run-cli.ts', import.meta.url));

/** Runs the CLI with its stdout read for `lines` lines, then closed, as `| head -n lines` does. */
function runClosingStdoutAfter(
  lines: number,
  args: string[],
): Promise<{ code: number | null; signal: string | null; stderr: string; read: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const read: string[] = [];
    let buffer = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const complete = buffer.split('\n');
      buffer = complete.pop()!;
      read.push(...complete);
      if (read.length >= lines) child.stdout.destroy();
    });
    child.on('exit', (code, signal) => resolve({ code, signal, stderr, read }));
  });
}

describe('a closed stdout', () => {
  it('never kills a run mid-step: the run cancels its step, ends explicitly and exits without a stack trace', async () => {
    const result = await runClosingStdoutAfter(1, [
      'run',
      'examples/walk.plan.json',
      '--world',
      'sim',
      '--json',
      '--fault',
      'navigate=slow:3000',
    ]);
    expect(result.read.length).toBeGreaterThanOrEqual(1);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('standard output closed: cancelling the running step');
    expect(result.stderr).not.toMatch(/EPIPE|at .*\.js:\d+/);
  }, 60_000);
});
