import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { assembleExecutor } from '../../src/executor/assemble.js';
import type { PlanResult } from '../../src/executor/events.js';
import { ShadowRuns, type ShadowJob } from '../../src/executor/shadow.js';
import { captureView, ForkPool, runInFork, type CapturedView } from '../../src/foresight/index.js';
import { registerContribution } from '../../src/registry/contribution.js';
import { canaryStatus, PromotionRule, promoteCanary, type VersionRun } from '../../src/registry/canary-sla.js';
import { runForkJob } from '../../src/foresight/fork-job.js';
import { SimWorld } from '../../src/world/sim/index.js';

const GOOD = fileURLToPath(new URL('./fixtures/navigate-canary.ts', import.meta.url));
const BROKEN = fileURLToPath(new URL('./fixtures/broken-navigate-canary.ts', import.meta.url));
const RULE = PromotionRule.parse({ minRuns: 3, p95MarginPct: 20 });

async function registryWith(module: string) {
  const registry = createDefaultRegistry();
  await registerContribution(registry, (await import(module)) as Record<string, unknown>);
  return registry;
}

/** A bot before a wall, and a walk around it: the step both versions run. */
function worldBeforeAWall(): { world: SimWorld; clock: ManualClock } {
  const clock = new ManualClock();
  const world = SimWorld.create({ clock });
  world.fill({ x: 3, y: 0, z: -2 }, { x: 3, y: 2, z: 2 }, 'stone');
  return { world, clock };
}

const walk = { verb: 'navigate', args: { target: { kind: 'block', x: 5, y: 0, z: 0 } } };

/** Runs the walk for real on `world` (its executor observed by `attach`), to the end, on the world's manual clock. */
async function walkForReal(
  world: SimWorld,
  clock: ManualClock,
  registry: Awaited<ReturnType<typeof registryWith>>,
  attach?: (executor: Awaited<ReturnType<typeof assembleExecutor>>['executor']) => void,
): Promise<PlanResult> {
  const { executor } = await assembleExecutor({ registry, world, clock });
  attach?.(executor);
  let result: PlanResult | undefined;
  const plan = { planId: 'p', intentId: 'i', steps: [{ stepId: 'walk', type: walk.verb, args: walk.args }] };
  void executor.run(plan).result.then((r) => (result = r));
  await clock.runUntil(() => result !== undefined, 120_000);
  return result!;
}

describe('shadow runs of a canary', () => {
  it('runs the canary on a fork in a worker thread while the stable version acts; no actuator call crosses, TTFA is the same', async () => {
    const registry = await registryWith(GOOD);
    const pool = new ForkPool({ size: 1, wallBudgetMs: 60_000 });
    const runs: VersionRun[] = [];
    const jobs: ShadowJob[] = [];
    const shadowed = worldBeforeAWall();
    let shadows: ShadowRuns<CapturedView> | undefined;
    const withShadow = await walkForReal(shadowed.world, shadowed.clock, registry, (executor) => {
      shadows = new ShadowRuns(executor, {
        registry,
        world: shadowed.world,
        clock: shadowed.clock,
        capture: (world) => captureView(world, { radius: 8, height: 3 }),
        runFork: (view, job) => (jobs.push(job), runInFork(view, job, pool)),
        record: (run) => void runs.push(run),
        capabilityModules: [GOOD],
      });
    });
    const actedWhenStepEnded = [...shadowed.world.actuatorLog];
    await shadows!.idle();

    const bare = worldBeforeAWall();
    const without = await walkForReal(bare.world, bare.clock, registry);
    expect(withShadow.ok && without.ok).toBe(true);
    // The real world saw only the stable version's own commands, the same as with no shadow at all, and none after.
    expect(shadowed.world.actuatorLog).toEqual(actedWhenStepEnded);
    expect(shadowed.world.actuatorLog).toEqual(bare.world.actuatorLog);
    expect(withShadow.steps[0]!.ttfaMs).toBe(without.steps[0]!.ttfaMs);
    expect(jobs).toMatchObject([
      {
        verb: 'navigate',
        args: walk.args,
        version: '9.0.0',
        capabilityModules: [GOOD],
      },
    ]);
    expect(shadows!).toMatchObject({ started: 1, skipped: 0, errors: [] });
    expect(runs.map(({ version, shadow, ok, worldKind }) => ({ version, shadow, ok, worldKind }))).toEqual(
      expect.arrayContaining([
        { version: '1.0.0', shadow: false, ok: true, worldKind: 'sim' },
        { version: '9.0.0', shadow: true, ok: true, worldKind: 'sim' },
      ]),
    );
  }, 120_000);
});

/** `times` real walks of the stable version, each shadowed by the canary of `module` on a fork run in-process. */
async function shadowedWalks(module: string, times: number) {
  const registry = await registryWith(module);
  const runs: VersionRun[] = [];
  for (let i = 0; i < times; i++) {
    const { world, clock } = worldBeforeAWall();
    let shadows: ShadowRuns<CapturedView> | undefined;
    await walkForReal(world, clock, registry, (executor) => {
      shadows = new ShadowRuns(executor, {
        registry,
        world,
        clock,
        capture: (seen) => captureView(seen, { radius: 8, height: 3 }),
        runFork: (view, job) => runForkJob(view, job),
        record: (run) => void runs.push(run),
        capabilityModules: [module],
      });
    });
    await shadows!.idle();
    expect(shadows!.errors).toEqual([]);
  }
  return { registry, runs, status: () => canaryStatus(registry.canaries()[0]!, runs, RULE) };
}

describe('the promotion rule over shadow runs', () => {
  it('never marks a deliberately broken canary ready, however many runs it has, and refuses to promote it', async () => {
    const { registry, runs, status } = await shadowedWalks(BROKEN, RULE.minRuns + 1);
    expect(runs.filter((run) => run.shadow).map((run) => run.ok)).toEqual([false, false, false, false]);
    expect(status()).toMatchObject({
      state: 'shadow',
      reason: "on sim: success 0% is below the stable's 100%",
    });
    expect(() => promoteCanary(registry, 'navigate@9.0.0', runs, RULE)).toThrow(
      "promote navigate@9.0.0: not ready by the promotion rule (on sim: success 0% is below the stable's 100%); let it run in shadow longer, or list it in the project config's canaries.promote",
    );
    expect(registry.resolve('navigate')).toMatchObject({ ok: true, spec: { version: '1.0.0' } });
  }, 180_000);

  it('marks a canary as sure and as fast as the stable version ready after its N runs, not before, and promotes it', async () => {
    const { registry, runs, status } = await shadowedWalks(GOOD, RULE.minRuns);
    const before = canaryStatus(registry.canaries()[0]!, runs.slice(0, 2 * (RULE.minRuns - 1)), RULE);
    expect(before).toMatchObject({ state: 'shadow', reason: '2 of 3 shadow runs so far' });
    expect(status()).toMatchObject({ state: 'ready', reason: '3 shadow runs on sim meet the rule' });
    expect(status().sla).toMatchObject([
      {
        worldKind: 'sim',
        stable: { version: '1.0.0', shadow: false, runs: 3, successRate: 1 },
        canary: { version: '9.0.0', shadow: true, runs: 3, successRate: 1 },
      },
    ]);
    expect(promoteCanary(registry, 'navigate@9.0.0', runs, RULE)).toMatchObject({ state: 'promoted' });
    expect(registry.resolve('navigate')).toMatchObject({ ok: true, spec: { version: '9.0.0' } });
  }, 180_000);
});
