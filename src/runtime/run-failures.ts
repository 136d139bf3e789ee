import { isFailureCode, type FailureCode } from '../contracts/failure-codes.js';
import type { CompiledNode } from './compile.js';
import type { TreeFailure } from './outcome.js';
import type { Watchdog } from './watchdog.js';
import { WATCHDOG_KINDS } from './watchdog-spec.js';

/**
 * The failures of one run: the one its outcome reports, and what each
 * `while(retryable)` guard reads. Per-node state lives in an array indexed by
 * node, as the step path reads it.
 */
export class RunFailures {
  /** For each node with a retryable guard: the code of the last failure below it since it started. */
  private readonly below: (FailureCode | undefined)[];
  private last: TreeFailure | undefined;
  private lastFailedLeaf: string | undefined;

  constructor(
    private readonly nodes: readonly CompiledNode[],
    private readonly retryableCodes: ReadonlySet<FailureCode>,
  ) {
    this.below = new Array<FailureCode | undefined>(nodes.length).fill(undefined);
  }

  /** A coded failure at this node (a throw, a rejection, a watchdog trip). */
  record(node: CompiledNode, failure: TreeFailure): void {
    this.last = failure;
    this.lastFailedLeaf = node.path;
    for (const index of node.watchedBy) if (this.nodes[index]!.retryableGuard) this.below[index] = failure.code;
  }

  /** A leaf that returned false: no code, but the leaf to name when nothing coded failed. */
  leafReturnedFalse(node: CompiledNode): void {
    this.lastFailedLeaf = node.path;
  }

  /** A watched node started again: what failed below it before no longer counts. */
  forgetBelow(index: number): void {
    this.below[index] = undefined;
  }

  /** `while(retryable)`: evaluated on every update below the node, so it only reads what `record` set. */
  retryableHolds(node: CompiledNode): boolean {
    const code = this.below[node.index];
    return code === undefined || this.retryableCodes.has(code);
  }

  /**
   * The latest coded failure (a throw, a trip), else the last leaf that
   * returned false. A code wins over a later plain false: recovery leaves
   * (an unstuck move that changed nothing) return false, and the planner
   * needs the code (no_path), not "returned false".
   */
  outcome(treeName: string): TreeFailure {
    if (this.last) return this.last;
    const at = this.lastFailedLeaf ?? treeName;
    return {
      ok: false,
      code: 'runner_error',
      detail: `${treeName}: the tree failed; last failed leaf ${at} returned false`,
      nodePath: at,
    };
  }
}

/** A leaf's or a condition's error as a failure at its node: its own code when it carries one. */
export function failureOf(node: CompiledNode, error: unknown): TreeFailure {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return {
    ok: false,
    code: isFailureCode(code) ? code : 'runner_error',
    detail: `${node.path}: ${message}`,
    nodePath: node.path,
  };
}

/**
 * A watchdog's trip as a failure. The detail is for people (whole ms, as a wall clock reads 20000.3328...);
 * measuredMs stays exact.
 */
export function tripFailure(
  watchdog: Watchdog,
  measuredMs: number,
): TreeFailure & { nodePath: string; limitMs: number; measuredMs: number } {
  return {
    ok: false,
    code: WATCHDOG_KINDS[watchdog.kind],
    detail: `${watchdog.nodePath}: ${watchdog.kind} watchdog tripped after ${Math.round(measuredMs)} ms (limit ${watchdog.limitMs} ms)`,
    nodePath: watchdog.nodePath,
    limitMs: watchdog.limitMs,
    measuredMs,
  };
}

/**
 * The caller's abort (a stuck detector, a step deadline, a cancel) as a failure of whatever was acting: the
 * action leaf running then (the last in tree order, when several run in parallel) is the failing node. A
 * FailureCode as the reason, or as the reason's `code`, becomes the failure's code.
 */
export function abortFailure(reason: unknown, acting: CompiledNode | undefined, treeName: string): TreeFailure {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a caller's own abort reason, shown as it is
  const why = reason instanceof Error ? reason.message : String(reason ?? 'no reason given');
  return {
    ok: false,
    code: abortCodeOf(reason),
    detail: `${acting?.path ?? treeName}: aborted by the caller (${why})`,
    ...(acting ? { nodePath: acting.path } : {}),
  };
}

function abortCodeOf(reason: unknown): FailureCode {
  if (isFailureCode(reason)) return reason;
  const code = (reason as { code?: unknown } | null)?.code;
  return isFailureCode(code) ? code : 'aborted';
}
