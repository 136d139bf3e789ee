import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import type { CapabilityRegistry } from '../../src/index.js';
import type { Death } from '../../src/contracts/world.js';
import { assembleExecutor, type AssembleOptions } from '../../src/executor/assemble.js';
import type { ExecutorEvent, PlanResult } from '../../src/executor/events.js';
import type { RunInput } from '../../src/executor/executor.js';
import { SimWorld, type SimWorldOptions } from '../../src/world/sim/index.js';

export interface Harness {
  clock: ManualClock;
  world: SimWorld;
  registry: CapabilityRegistry;
  events: ExecutorEvent[];
  /**
   * The bot's deaths, as its world reported them: a dead bot respawns at 20 health, so a test that the bot lives reads
   * this, not the health at the end.
   */
  deaths: Death[];
  /** Runs the plan to its end on virtual time; fails the test if it needs more than `maxMs`. */
  run(plan: unknown, maxMs?: number): Promise<PlanResult>;
  assembly: Awaited<ReturnType<typeof assembleExecutor>>;
}

export async function harness(
  world: Partial<SimWorldOptions> | ((clock: ManualClock) => SimWorld) = {},
  extra:
    | Partial<Omit<AssembleOptions, 'world' | 'clock'>>
    | ((clock: ManualClock) => Partial<Omit<AssembleOptions, 'world' | 'clock'>>) = {},
): Promise<Harness> {
  const clock = new ManualClock();
  const options = typeof extra === 'function' ? extra(clock) : extra;
  const sim = typeof world === 'function' ? world(clock) : SimWorld.create({ clock, ...world });
  const registry = options.registry ?? createDefaultRegistry();
  const assembly = await assembleExecutor({ registry, world: sim, clock, ...options });
  const events: ExecutorEvent[] = [];
  assembly.executor.events.on('event', (event) => events.push(event));
  const deaths: Death[] = [];
  sim.events.on('died', (death) => deaths.push(death));
  return {
    clock,
    world: sim,
    registry,
    events,
    deaths,
    assembly,
    async run(plan, maxMs = 120_000) {
      let result: PlanResult | undefined;
      // Tests hand it bad input on purpose too: run checks it at run time.
      void assembly.executor.run(plan as RunInput).result.then((r) => (result = r));
      await clock.runUntil(() => result !== undefined, maxMs);
      if (!result)
        throw new Error(
          `the plan did not end within ${maxMs} ms of virtual time; last events: ${JSON.stringify(events.slice(-5))}`,
        );
      return result;
    },
  };
}

export const plan = (
  ...steps: { stepId: string; type: string; args: Record<string, unknown>; idempotencyKey?: string }[]
) => ({
  planId: 'test-plan',
  intentId: 'test-intent',
  steps,
});

/** Starts the plan, cancels it after `afterMs` of virtual time, and returns the result and when it was cancelled. */
export async function cancelAfter(
  h: Harness,
  steps: Parameters<typeof plan>,
  afterMs: number,
): Promise<{ result: PlanResult; cancelledAt: number }> {
  const controller = new AbortController();
  let result: PlanResult | undefined;
  void h.assembly.executor.run(plan(...steps), { signal: controller.signal }).result.then((r) => (result = r));
  await h.clock.advance(afterMs);
  controller.abort();
  const cancelledAt = h.clock.now();
  await h.clock.advanceUntil(() => result !== undefined, 5_000, 50);
  await h.clock.advance(2_000);
  return { result: result!, cancelledAt };
}
