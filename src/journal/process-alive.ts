import { readFileSync } from 'node:fs';

/**
 * Whether a process with this pid runs on this host. Signal 0 probes without
 * signalling; on Linux a killed process nobody has reaped yet (a zombie, state
 * Z) still answers it, so /proc decides.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isUnreaped(pid);
}

function isUnreaped(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the parenthesised command name, which may itself hold spaces or parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}
