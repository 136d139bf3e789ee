import type { RunContext, TreeAction } from '../registry/capability-spec.js';
import type { BindingRegistry } from './binding-registry.js';
import type { CompiledNode } from './compile.js';

/**
 * `action [round_robin, "a", "b", ...]` for one run: tries the named actions in
 * rotation, starting after the one that last succeeded (Nav2's RoundRobin), and
 * stops at the first success. When all fail, the last error (if any) is thrown.
 */
export class RoundRobinIntrinsic {
  private readonly next: number[] = [];

  constructor(private readonly bindings: BindingRegistry) {}

  async start(node: CompiledNode, ctx: RunContext): Promise<boolean> {
    const names = node.args as string[];
    const first = this.next[node.index] ?? 0;
    let lastError: unknown;
    for (let k = 0; k < names.length; k++) {
      if (ctx.signal.aborted) return false;
      const at = (first + k) % names.length;
      const action = this.bindings.action(names[at]!) as TreeAction;
      try {
        if ((await action(ctx)) !== false) {
          this.next[node.index] = (at + 1) % names.length;
          return true;
        }
      } catch (error) {
        lastError = error;
      }
    }
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the last caught error as it was
    if (lastError !== undefined) throw lastError;
    return false;
  }
}
