import { ManualClock } from '../../src/clock/index.js';
import type { WorldPort } from '../../src/contracts/world.js';
import type { RunContext } from '../../src/registry/capability-spec.js';
import {
  createBindingRegistry,
  createTreeCatalog,
  createTreeRunner,
  type BindingRegistry,
  type RuntimeHooks,
  type TreeRunnerOptions,
} from '../../src/runtime/index.js';

/** These runtime tests drive leaves through fake actuators; touching the world is a test bug. */
export const unusedWorld = new Proxy({} as WorldPort, {
  get(_target, key) {
    throw new Error(`runtime tests do not use the world (read ${String(key)})`);
  },
});

/**
 * An actuator under test: a command that takes `durationMs` of clock time (or
 * hangs), stops when its signal fires, and counts what is live.
 */
export class FakeActuator {
  started = 0;
  stopped = 0;
  finished = 0;
  live = 0;
  readonly signals: AbortSignal[] = [];

  constructor(private readonly clock: ManualClock) {}

  /** Issues the command through ctx.actuate; resolves after `durationMs`, never when 'hang'. */
  command(ctx: RunContext, durationMs: number | 'hang', name = 'fake'): Promise<void> {
    return ctx.actuate(name, () => this.start(ctx.signal, durationMs));
  }

  private start(signal: AbortSignal, durationMs: number | 'hang'): Promise<void> {
    this.started++;
    this.live++;
    this.signals.push(signal);
    return new Promise<void>((resolve, reject) => {
      const timer =
        durationMs === 'hang'
          ? undefined
          : this.clock.setTimeout(() => {
              this.finished++;
              this.live--;
              signal.removeEventListener('abort', onAbort);
              resolve();
            }, durationMs);
      const onAbort = (): void => {
        if (timer) this.clock.clearTimeout(timer);
        this.stopped++;
        this.live--;
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

export interface Harness {
  clock: ManualClock;
  bindings: BindingRegistry;
  runner: ReturnType<typeof createTreeRunner>;
}

/** A runner over inline MDSL trees (name -> source) with the given leaves bound. */
export function harness(
  trees: Record<string, string>,
  bind: (bindings: BindingRegistry, clock: ManualClock) => void,
  options: Partial<Pick<TreeRunnerOptions, 'tickHz' | 'abortGraceMs'>> & { hooks?: RuntimeHooks } = {},
): Harness {
  const clock = new ManualClock();
  const bindings = createBindingRegistry();
  bind(bindings, clock);
  const catalog = createTreeCatalog(
    Object.entries(trees).map(([name, text]) => ({ file: `${name}.mdsl`, text })),
    bindings,
  );
  return { clock, bindings, runner: createTreeRunner({ catalog, bindings, clock, ...options }) };
}

/** Lets settled promises and queued steps run without moving the clock. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
