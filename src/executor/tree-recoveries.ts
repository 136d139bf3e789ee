import type { FailureCode } from '../contracts/failure-codes.js';
import { WorldError } from '../contracts/world.js';

/**
 * What a tree did about a failed actuator command inside one attempt, unseen by the executor's own loop: it ran the
 * same command again (a `retry` node), or made an unstuck move (`move`) after it. Each counts in the step's record
 * (`retries`, `repairs`), its events and the SLA, as the executor's own retries and repairs do.
 */
export interface TreeRecovery {
  kind: 'retry' | 'unstuck';
  /** The command run again, or the move made. */
  command: string;
  /** The failure it answered. */
  code: FailureCode;
  detail: string;
}

interface Failed {
  command: string;
  code: FailureCode;
  detail: string;
}

/**
 * Watches one attempt's actuator commands as they start and settle: a command that starts again after it failed (not
 * aborted) is a retry inside the tree; a `move` started after a failure is an unstuck move.
 */
export function watchTreeRecoveries(report: (recovery: TreeRecovery) => void): {
  started(command: string): void;
  settled(command: string, error?: unknown): void;
} {
  const failed = new Map<string, Failed>();
  let last: Failed | null = null;
  return {
    started(command) {
      const retried = failed.get(command);
      if (retried) {
        failed.delete(command);
        report({ kind: 'retry', ...retried });
      } else if (command === 'move' && last) report({ kind: 'unstuck', command, code: last.code, detail: last.detail });
    },
    settled(command, error) {
      if (error === undefined || isAbort(error)) return;
      const code = error instanceof WorldError ? error.code : 'runner_error';
      last = { command, code, detail: error instanceof Error ? error.message : JSON.stringify(error) };
      failed.set(command, last);
    },
  };
}

/** A command the attempt's own end stopped is no failure of the command. */
function isAbort(error: unknown): boolean {
  return error instanceof WorldError && (error.code === 'aborted' || error.code === 'preempted');
}
