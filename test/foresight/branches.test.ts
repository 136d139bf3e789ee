import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { forkExplorer } from '../../src/foresight/index.js';
import { runForkJob } from '../../src/foresight/fork-job.js';
import { moat, nearestUnreachable, wallWithOneDiggable, type HardCase } from '../../src/foresight/hard-cases.js';
import { BranchConfigSchema, chooseBranch } from '../../src/recovery/index.js';
import { boxedIn } from '../../src/world/sim/index.js';
import type { Clock } from '../../src/contracts/clock.js';
import { harness, plan } from '../helpers/executor.js';
import { ofType, runHeldForForks, watchedExplorer } from '../helpers/branching.js';
import { recordingActuators } from './instrumented.js';

async function runCase(make: (clock: Clock) => HardCase, branches: boolean) {
  let hard: HardCase | undefined;
  const watch = watchedExplorer();
  const h = await harness((clock) => (hard = make(clock)).world, {
    explorer: watch.explorer,
    recovery: { branches: { enabled: branches } },
  });
  const result = await runHeldForForks(h, watch, plan({ stepId: 'stuck', ...hard!.step }));
  return { h, result, watch, repairs: ofType(h.events, 'step.repair') };
}

describe('branch exploration in the ladder (SimWorld hard cases)', () => {
  it('a moat: the fixed ladder fails; the forks find that a bridge crosses it, and it crosses for real', async () => {
    const without = await runCase(moat, false);
    expect(without.result.ok).toBe(false);
    expect(without.watch.requests).toHaveLength(0);

    const { h, result, watch, repairs } = await runCase(moat, true);
    expect(result.ok).toBe(true);
    expect(h.world.position()).toMatchObject({ x: 6.5, y: 0, z: 0.5 });
    const [scored] = watch.results;
    const chosen = chooseBranch(scored!)!;
    expect(chosen.candidate.source).toBe('bridge');
    const branch = repairs.find((r) => r.strategy.startsWith('branch:'))!;
    expect(branch.strategy).toBe(`branch: ${chosen.candidate.label} (score ${chosen.score})`);
    // Every branch tried is named with its score or why it has none, the choice marked.
    for (const { candidate } of scored!) expect(branch.detail).toContain(candidate.label);
    expect(branch.detail).toContain('← chosen');
    expect(ofType(h.events, 'step.started').filter((s) => s.verb === 'place_block').length).toBeGreaterThan(0);
  });

  it('a wall with one diggable block: the dig through it is chosen among the branches and the step then arrives', async () => {
    const without = await runCase(wallWithOneDiggable, false);
    expect(without.result.ok).toBe(false);
    const { h, result, repairs } = await runCase(wallWithOneDiggable, true);
    expect(result.ok).toBe(true);
    expect(repairs.map((r) => r.strategy)).toContain('branch: dig the block at 3,0,0, then the step (score 0.988)');
    expect(h.world.blockAt({ x: 3, y: 0, z: 0 })?.name).toBe('air');
    expect(h.world.position()).toMatchObject({ x: 6.5, y: 0, z: 0.5 });
  });

  it('the nearest log out of reach, another in the open: done either way, and no branch is needed', async () => {
    for (const branches of [false, true]) {
      const { h, result, watch } = await runCase(nearestUnreachable, branches);
      expect(result.ok).toBe(true);
      expect(h.world.inventory().oak_log).toBe(1);
      expect(watch.requests).toHaveLength(0);
    }
  });

  it('when no branch scores (boxed in), the stage says so and the ladder goes on to its explicit failure', async () => {
    const { h, result, watch } = await runCase((clock) => {
      const scenario = boxedIn({ clock });
      return { ...scenario, step: { type: 'navigate', args: { target: scenario.goal } } };
    }, true);
    expect(result.ok).toBe(false);
    expect(watch.results[0]!.every((branch) => branch.score === null)).toBe(true);
    expect(ofType(h.events, 'step.warning').map((w) => w.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^branch exploration: none of \d+ branches scored/)]),
    );
    expect(ofType(h.events, 'step.repair').some((r) => r.strategy.startsWith('branch:'))).toBe(false);
  });

  it("the planner's proposeAlternatives are tried beside the ladder's, and one that works can be chosen", async () => {
    let hard: HardCase | undefined;
    const watch = watchedExplorer();
    const planner = {
      name: 'stub-planner',
      onFailure: () => Promise.resolve({ giveUp: 'no plan' }),
      proposeAlternatives: () =>
        Promise.resolve([[{ type: 'place_block', args: { position: { x: 2, y: -1, z: 0 }, item: 'cobblestone' } }]]),
    };
    const h = await harness((clock) => (hard = moat(clock)).world, {
      explorer: watch.explorer,
      planner,
      recovery: { branches: { enabled: true, count: 8 } },
    });
    await runHeldForForks(h, watch, plan({ stepId: 'stuck', ...hard!.step }));
    const proposed = watch.results[0]!.find((branch) => branch.candidate.source === 'planner')!;
    expect(proposed.candidate.label).toBe("the planner's place_block");
    // One block is half a bridge: it leaves the step's expectation unmet, so it does not outscore the whole bridge.
    expect(chooseBranch(watch.results[0]!)!.candidate.source).toBe('bridge');
  });
});

describe("the forks' time", () => {
  it("moves the step's deadline: a step whose forks took longer than its deadline still gets its attempt", async () => {
    let hard: HardCase | undefined;
    let clock: ManualClock | undefined;
    const inThread = forkExplorer({ runFork: (view, job) => runForkJob(view, job) });
    // The forks take ten minutes of the run's clock, far past any navigate step's deadline.
    const watch = watchedExplorer({
      explore: async (request) => {
        const scored = await inThread.explore(request);
        await clock!.advance(600_000);
        return scored;
      },
    });
    const h = await harness((c) => ((clock = c), (hard = moat(c))).world, {
      explorer: watch.explorer,
      recovery: { branches: { enabled: true } },
    });
    const result = await runHeldForForks(h, watch, plan({ stepId: 'stuck', ...hard!.step }), 1_200_000);
    expect(result.ok).toBe(true);
    expect(ofType(h.events, 'step.resumed').map((e) => e.after)).toContain('branch exploration');
  });
});

describe('forks never act on the real world', () => {
  it('an instrumented world sees no actuator call while its branches run, in this thread and in worker threads', async () => {
    const clock = new ManualClock();
    const hard = moat(clock);
    const { world, calls } = recordingActuators(hard.world);
    const request = {
      world,
      candidates: [
        { id: 'repath', source: 'repath' as const, label: 'again', steps: [], thenStep: true },
        {
          id: 'bridge',
          source: 'bridge' as const,
          label: 'bridge',
          steps: [2, 3].map((x) => ({
            verb: 'place_block',
            args: { position: { x, y: -1, z: 0 }, item: 'cobblestone' },
          })),
          thenStep: true,
        },
      ],
      step: { verb: hard.step.type, args: hard.step.args },
      judgeBy: [{ kind: 'position' as const, goal: { kind: 'block' as const, x: 6, y: 0, z: 0 } }],
      config: BranchConfigSchema.parse({ enabled: true, wallBudgetMs: 120_000, totalBudgetMs: 240_000 }),
    };
    const inThread = await forkExplorer({ runFork: (view, job) => runForkJob(view, job) }).explore(request);
    const inWorkers = await forkExplorer().explore(request);
    for (const scored of [inThread, inWorkers]) {
      expect(scored.map((s) => s.trial.outcome)).toEqual(['failed', 'ok']);
      expect(chooseBranch(scored)!.candidate.id).toBe('bridge');
    }
    expect(calls).toEqual([]);
    expect(hard.world.position()).toMatchObject({ x: 0.5, y: 0, z: 0.5 });
    expect(hard.world.inventory()).toEqual({ cobblestone: 16 });
  }, 240_000);
});
