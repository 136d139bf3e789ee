import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import {
  BranchConfigSchema,
  chooseBranch,
  parseStuckConfig,
  RecoveryLadder,
  scoreBranch,
  type BranchTrial,
  type ScoredBranch,
} from '../../src/recovery/index.js';
import { createDetection } from '../../src/stuck/detection.js';

const config = BranchConfigSchema.parse({});
const trial = (over: Partial<BranchTrial> = {}): BranchTrial => ({
  outcome: 'ok',
  progress: 1,
  simulatedMs: 1_000,
  damage: 0,
  spent: 0,
  unknownTouches: 0,
  ...over,
});

describe('scoreBranch', () => {
  it('never scores a fork that was cut off, crashed, skipped, or made no progress', () => {
    for (const outcome of ['wall_budget', 'crashed', 'skipped'] as const)
      expect(scoreBranch(trial({ outcome }), config)).toBeNull();
    expect(scoreBranch(trial({ outcome: 'failed', progress: 0 }), config)).toBeNull();
  });

  it('takes time, damage, items spent and unseen cells off the progress', () => {
    const base = scoreBranch(trial(), config)!;
    expect(base).toBeGreaterThan(0.9);
    expect(scoreBranch(trial({ simulatedMs: 30_000 }), config)!).toBeLessThan(base);
    expect(scoreBranch(trial({ damage: 6 }), config)!).toBeLessThan(base);
    expect(scoreBranch(trial({ spent: 4 }), config)!).toBeLessThan(base);
    expect(scoreBranch(trial({ unknownTouches: 40 }), config)!).toBeLessThan(base);
    // A costly branch that barely moved does not score at all.
    expect(scoreBranch(trial({ progress: 0.1, damage: 10 }), config)).toBeNull();
  });
});

describe('chooseBranch', () => {
  const arbitraryTrial = fc.record({
    outcome: fc.constantFrom('ok', 'failed', 'sim_budget', 'wall_budget', 'crashed', 'skipped' as const),
    progress: fc.double({ min: 0, max: 1, noNaN: true }),
    simulatedMs: fc.integer({ min: 0, max: 120_000 }),
    damage: fc.integer({ min: 0, max: 20 }),
    spent: fc.integer({ min: 0, max: 64 }),
    unknownTouches: fc.integer({ min: 0, max: 500 }),
  });

  it('picks the best scored branch (the first among equals), or none when none scores', () => {
    fc.assert(
      fc.property(fc.array(arbitraryTrial, { maxLength: 8 }), (trials) => {
        const scored: ScoredBranch[] = trials.map((t, index) => ({
          candidate: { id: `c${index}`, source: 'repath', label: `c${index}`, steps: [], thenStep: true },
          trial: t,
          score: scoreBranch(t, config),
        }));
        const chosen = chooseBranch(scored);
        const scores = scored.flatMap((s) => (s.score === null ? [] : [s.score]));
        if (scores.length === 0) return chosen === null;
        const best = Math.max(...scores);
        return chosen !== null && chosen.score === best && scored.find((s) => s.score === best) === chosen;
      }),
    );
  });
});

describe('the branch stage in the recovery configuration', () => {
  it('is off by default and bounded, and a bad value is named with its path', () => {
    expect(parseStuckConfig({}).recovery.branches).toEqual({
      enabled: false,
      count: 4,
      simBudgetMs: 60_000,
      wallBudgetMs: 20_000,
      totalBudgetMs: 45_000,
    });
    expect(() => parseStuckConfig({ recovery: { branches: { count: 0 } } })).toThrow(
      /"recovery\.branches\.count": must be at least 1, got 0/,
    );
  });
});

describe('the ladder with a chosen branch', () => {
  const detection = (clock: ManualClock) =>
    createDetection('path', 'no path', clock.now(), clock.now(), { code: 'stuck.path' }, { x: 0, y: 0, z: 0 });
  const branch = { candidate: 'bridge', label: 'bridge 2 cobblestone toward the target, then the step', score: 0.95 };

  it('makes it the first rung, spends the budgets on it, and counts the stage that resolved the incident', () => {
    const clock = new ManualClock();
    const ladder = new RecoveryLadder({ clock });
    const decision = ladder.onDetection(detection(clock), {}, branch);
    expect(decision).toMatchObject({ strategy: 'branch', priority: null, nextState: 'RECOVERING' });
    expect(decision.budget.stepAttempts).toBe(1);
    expect(ladder.history).toEqual(['branch: bridge 2 cobblestone toward the target, then the step (score 0.95)']);
    expect(ladder.report(decision, { resolved: true })).toBeNull();
    expect(ladder.metrics.view()).toEqual({
      recoveryTriggers: 1,
      recoverySuccesses: 1,
      stageSuccess: { branch: 1 },
      recoveryIterations: 1,
    });
  });

  it('goes on with its own rungs when the branch did not resolve it', () => {
    const clock = new ManualClock();
    const ladder = new RecoveryLadder({ clock });
    const first = ladder.onDetection(detection(clock), { canEscalate: false }, branch);
    const next = ladder.report(first, { resolved: false }, { canEscalate: false });
    expect(next?.strategy).toBe('unstuck');
    expect(ladder.metrics.view()).toMatchObject({ recoveryTriggers: 1, recoverySuccesses: 0, recoveryIterations: 2 });
  });

  it("takes no branch once the task's recovery budget is spent", () => {
    const clock = new ManualClock();
    const spent = new RecoveryLadder({ clock, config: { budgets: { totalPerTask: 1 } } });
    spent.report(spent.onDetection(detection(clock)), { resolved: false });
    expect(spent.onDetection(detection(clock), {}, branch).strategy).not.toBe('branch');
  });
});
