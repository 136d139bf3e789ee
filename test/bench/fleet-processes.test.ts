import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ProcessUsage, cpuMsOf } from '../../bench/fleet-processes.js';

/*
 * Issue 34: the fleet bench crashed with `ENOENT /proc/<pid>/stat` when a worker exited during a row. A process gone
 * is a figure, what it last used, not a crash.
 */

describe('a process’s usage, read from /proc', () => {
  it('keeps its last reading once the process has exited and /proc no longer knows it', async () => {
    // A child that spends some CPU, says so, and exits when its stdin closes.
    const child = spawn(
      process.execPath,
      [
        '-e',
        'let x = 0; for (let i = 0; i < 3e7; i++) x += i; console.log(x); process.stdin.resume(); process.stdin.on("end", () => process.exit(0))',
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const usage = new ProcessUsage(child.pid!, 60_000);
    await once(child.stdout, 'data');
    expect(usage.rssMb()).toBeGreaterThan(0);
    // The last reading while it runs: every read updates it, and the child still spends CPU as it exits.
    const whileRunning = usage.cpuMs();
    expect(whileRunning).toBeGreaterThan(0);

    const exited = once(child, 'exit');
    child.stdin.end();
    await exited;
    expect(() => cpuMsOf(child.pid!)).toThrow(/ENOENT/);
    expect(usage.cpuMs()).toBe(whileRunning);
    expect(usage.rssMb()).toBeGreaterThan(0);
    usage.stop();
  });
});
