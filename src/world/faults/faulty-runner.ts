import { WorldError } from '../../contracts/world.js';
import { type Runner, withContext } from '../../registry/capability-spec.js';
import { deriveSeed, mulberry32 } from '../../random.js';
import type { Fault } from './fault.js';
import { FaultyWorld } from './faulty-world.js';
import { runFaulted, stall } from './inject.js';
import type { FaultRule } from './parse.js';
import { ACTUATOR_METHODS } from './targets.js';

export interface RunnerFaultOptions {
  seed?: number;
  /** Names the runner in errors; defaults to "runner". */
  label?: string;
}

/**
 * Wraps a capability runner so it misbehaves as `fault` says. Hangs issue one
 * actuator command first (the runner "started acting") and then never return;
 * never_actuates waits without any; wrong_effects and partial run the real
 * runner against a world whose actuators do nothing or stall part-way.
 */
export function withRunnerFault<A>(runner: Runner<A>, fault: Fault, options: RunnerFaultOptions = {}): Runner<A> {
  const label = options.label ?? 'runner';
  const random = mulberry32(deriveSeed(options.seed ?? 1, `${label}:${fault.kind}`));
  const aborted = () => new WorldError('aborted', `${label} (injected ${fault.kind}) was aborted`);
  switch (fault.kind) {
    case 'hang':
      return (ctx) => ctx.actuate('hang', () => stall(ctx.signal, aborted));
    case 'hang_ignoring_abort':
      return (ctx) => ctx.actuate('hang', () => new Promise<never>(() => {}));
    case 'never_actuates':
      return (ctx) => stall(ctx.signal, aborted);
    case 'wrong_effects':
    case 'partial': {
      const rules: FaultRule[] = [
        { spec: `${label}=${fault.kind}`, target: label, targetKind: 'actuator', actuators: ACTUATOR_METHODS, fault },
      ];
      return (ctx) =>
        runner(
          withContext(ctx, { world: new FaultyWorld(ctx.world, rules, { clock: ctx.clock, seed: options.seed ?? 1 }) }),
        );
    }
    default:
      return (ctx) =>
        runFaulted(
          fault,
          {
            label,
            signal: ctx.signal,
            clock: ctx.clock,
            random,
            invoke: () => runner(ctx),
            noEffect: undefined as never,
            window: { endsAt: null },
          },
          () => {},
        );
  }
}

/**
 * Applies the rules aimed at `verb` to its runner. World-level faults belong on the world (injectWorldFaults); only
 * never_actuates is runner-only.
 */
export function injectRunnerFaults<A>(
  verb: string,
  runner: Runner<A>,
  rules: readonly FaultRule[],
  options: RunnerFaultOptions = {},
): Runner<A> {
  const rule = rules.find(
    (r) =>
      r.targetKind === 'verb' && r.target === verb && (r.fault.kind === 'never_actuates' || r.actuators.length === 0),
  );
  return rule ? withRunnerFault(runner, rule.fault, { ...options, label: verb }) : runner;
}
