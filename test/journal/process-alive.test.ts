import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processAlive } from '../../src/journal/process-alive.js';

describe('processAlive', () => {
  it('tells a live process from an exited one', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(spawnSync(process.execPath, ['-e', '0']).pid)).toBe(false);
  });

  it.runIf(process.platform === 'linux')('calls a killed process that is not yet reaped dead', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('spawn', resolve));
    expect(processAlive(child.pid!)).toBe(true);
    // Spinning synchronously keeps libuv from reaping it: the child stays a zombie that still answers signal 0.
    process.kill(child.pid!, 'SIGKILL');
    const until = Date.now() + 5_000;
    while (!state(child.pid!).startsWith('Z') && Date.now() < until);
    expect(state(child.pid!)).toBe('Z');
    expect(() => process.kill(child.pid!, 0)).not.toThrow();
    expect(processAlive(child.pid!)).toBe(false);
  });
});

function state(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}
