import type { Clock } from '../contracts/clock.js';
import { WorldError } from '../contracts/world.js';
import { injectWorldFaults } from '../world/faults/faulty-world.js';
import { stall } from '../world/faults/inject.js';
import type { FaultRule } from '../world/faults/parse.js';
import type { StepInvoker } from './invoker.js';

/**
 * Makes attempts misbehave as the rules say: world-level faults hit the
 * actuators a verb uses while that verb runs; `never_actuates` makes the
 * verb's attempt wait without acting. For `verbtree run --fault` and tests.
 */
export function injectFaults(
  invoker: StepInvoker,
  rules: readonly FaultRule[],
  options: { clock: Clock; seed?: number },
): StepInvoker {
  if (rules.length === 0) return invoker;
  let activeVerb: string | undefined;
  const worlds = new WeakMap<object, ReturnType<typeof injectWorldFaults>>();
  return {
    async invoke(request) {
      const silent = rules.find(
        (r) => r.targetKind === 'verb' && r.target === request.spec.name && r.fault.kind === 'never_actuates',
      );
      if (silent) {
        return stall(
          request.signal,
          () => new WorldError('aborted', `${request.spec.name} (injected never_actuates) was aborted`),
        ).catch((error: WorldError) => ({
          ok: false as const,
          code: error.code,
          detail: error.message,
        }));
      }
      let world = worlds.get(request.world);
      if (!world) {
        world = injectWorldFaults(request.world, rules, {
          clock: options.clock,
          seed: options.seed ?? 1,
          activeVerb: () => activeVerb,
        });
        worlds.set(request.world, world);
      }
      activeVerb = request.spec.name;
      try {
        return await invoker.invoke({ ...request, world });
      } finally {
        activeVerb = undefined;
      }
    },
  };
}
