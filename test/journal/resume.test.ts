import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinCapabilities, createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import type { Vec3Like } from '../../src/contracts/world.js';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { runHealthCheck } from '../../src/journal/health-check.js';
import type { Journal } from '../../src/journal/journal.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import type { RunInput } from '../../src/executor/executor.js';
import { distrustUnsavedSteps, ResumeError, resumePoint, verifyInterruptedSteps } from '../../src/journal/resume.js';
import { simWorldFromJournal } from '../../src/journal/sim-restore.js';
import { SqliteJournal } from '../../src/journal/sqlite/sqlite-journal.js';
import { CapabilityRegistry } from '../../src/registry/registry.js';
import { validatePlan } from '../../src/validate/validate-plan.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { asIfWrittenBy, crashCopy, openTemp, stepsOf } from './helpers.js';

const registry = createDefaultRegistry();

/**
 * The built-in capabilities, with dig_block judged by an expectation alone (the block is air), as capabilities that
 * declare `expect` are.
 */
function expectingRegistry(): CapabilityRegistry {
  const expecting = new CapabilityRegistry();
  for (const spec of builtinCapabilities) {
    if (spec.name !== 'dig_block') {
      expecting.register(spec);
      continue;
    }
    // eslint-disable-next-line @typescript-eslint/unbound-method -- dropped from the copy, never called
    const { acceptance: _replacedByExpect, ...rest } = spec;
    expecting.register({
      ...rest,
      expect: (_pre: unknown, args: { position: Vec3Like }) => [{ kind: 'block', at: args.position, oneOf: ['air'] }],
    });
  }
  return expecting;
}
/** The built-in capabilities, with dig_block judged by an acceptance function alone, as a user's capability may be. */
function acceptanceOnlyRegistry(): CapabilityRegistry {
  const judged = new CapabilityRegistry();
  for (const spec of builtinCapabilities) {
    if (spec.name !== 'dig_block') {
      judged.register(spec);
      continue;
    }
    // eslint-disable-next-line @typescript-eslint/unbound-method -- dropped from the copy, never called
    const { expect: _replacedByAcceptance, ...rest } = spec;
    judged.register({ ...rest, acceptance: () => ({ ok: true }) });
  }
  return judged;
}
const plan = {
  planId: 'p',
  intentId: 'i',
  steps: [
    { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 }, idempotencyKey: 'k-planks' },
    { stepId: 'dig', type: 'dig_block', args: { position: { x: 1, y: 0, z: 0 }, block: 'dirt' } },
    { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 3, y: 0, z: 2 } } },
  ],
};

async function runOn(
  journal: Journal,
  world: (clock: ManualClock) => SimWorld,
  input: unknown = plan,
  onEvent?: (event: ExecutorEvent) => void,
  using = registry,
) {
  const clock = new ManualClock();
  const assembly = await assembleJournaled({ registry: using, world: world(clock), clock, journal, kind: 'test' });
  const events: ExecutorEvent[] = [];
  assembly.executor.events.on('event', (e) => events.push(e));
  if (onEvent) assembly.executor.events.on('event', onEvent);
  let done = false;
  const run = await assembly.run(input as RunInput);
  void run.result.then(() => (done = true));
  await clock.runUntil(() => done, 120_000);
  await assembly.close();
  return { result: await run.result, events, assembly };
}

/** A world with a log to craft from and a dirt block standing at x=1. */
const startWorld = (clock: ManualClock) =>
  SimWorld.create({ clock, inventory: { oak_log: 1 } }).setBlock({ x: 1, y: 0, z: 0 }, 'dirt');

/**
 * What a runner SIGKILLed during a step leaves, after the next process's
 * health check: a copy of the journal taken at the step's first action (every
 * write is committed synchronously), its runner and lease holder a real,
 * exited pid, and the step reset to pending.
 */
async function crashDuring(stepId: string, using: CapabilityRegistry): Promise<SqliteJournal> {
  const { journal, path } = openTemp();
  const copy = join(dirname(path), `crashed-${stepId}.db`);
  await runOn(
    journal,
    startWorld,
    plan,
    (event) => {
      if (event.type === 'step.firstAction' && event.stepId === stepId) crashCopy(journal, copy);
    },
    using,
  );
  const crashed = SqliteJournal.open(copy);
  asIfWrittenBy(crashed, spawnSync(process.execPath, ['-e', '0']).pid, hostname());
  const recovered = await runHealthCheck(crashed);
  expect(recovered.findings.map((f) => [f.mode, f.stepId ?? null])).toEqual([
    ['dead_runner', null],
    ['orphaned_step', stepId],
  ]);
  return crashed;
}

/** How many craft commands the plan's action trace holds. */
async function craftsIn(journal: Journal, planId = 'p'): Promise<number> {
  const steps = (await journal.planProvenance(planId))?.steps ?? [];
  return steps.flatMap((s) => s.attempts.flatMap((a) => a.actions)).filter((a) => a.command === 'craft').length;
}

describe('resume', () => {
  it('a completed idempotency key survives the process: a new executor on the journal does not craft again while the planks it made are there', async () => {
    const { journal } = openTemp();
    await runOn(journal, startWorld);
    expect(await journal.completedKeys()).toEqual(['k-planks']);
    const again = await runOn(
      journal,
      (clock) => SimWorld.create({ clock, inventory: { oak_log: 1, oak_planks: 4 } }),
      {
        ...plan,
        planId: 'p2',
        steps: [plan.steps[0]],
      },
    );
    expect(again.result.ok).toBe(true);
    expect(again.events.find((e) => e.type === 'step.deduplicated')).toMatchObject({
      idempotencyKey: 'k-planks',
      holder: { planId: 'p', stepId: 'planks' },
      expectations: [{ kind: 'inventory', item: 'oak_planks', atLeast: 4 }],
    });
    expect(await craftsIn(journal)).toBe(1);
    expect(await craftsIn(journal, 'p2')).toBe(0);
  });

  it('rebuilds a sim world from the effects of completed steps: blocks changed, the bot as the last step left it', async () => {
    const { journal } = openTemp();
    await runOn(journal, startWorld);
    const clock = new ManualClock();
    const rebuilt = await simWorldFromJournal(journal, 'p', { clock, seed: 1 });
    expect(rebuilt.blockAt({ x: 1, y: 0, z: 0 })?.name).toBe('air');
    // The dug dirt was picked up on the walk: the inventory is the last step's, not the start's.
    expect(rebuilt.inventory()).toEqual({ oak_planks: 4, dirt: 1 });
    expect([Math.floor(rebuilt.position().x), Math.floor(rebuilt.position().z)]).toEqual([3, 2]);
  });

  it('rebuilds a sim world from the current line of runs only: an earlier run of the same planId happened in another world', async () => {
    const { journal, path } = openTemp();
    await runOn(journal, startWorld);
    // A new run of the same plan, in a new world, crashes during its first step (the copy is what a SIGKILL leaves on
    // disk).
    const copy = join(dirname(path), 'crashed.db');
    await runOn(journal, startWorld, plan, (event) => {
      if (event.type === 'step.firstAction' && event.stepId === 'planks') crashCopy(journal, copy);
    });
    const crashed = SqliteJournal.open(copy);
    try {
      const rebuilt = await simWorldFromJournal(crashed, 'p', { clock: new ManualClock(), seed: 1 });
      // Not the planks, dirt and position the first run ended with: this run had achieved nothing yet.
      expect(rebuilt.inventory()).toEqual({});
      expect([Math.floor(rebuilt.position().x), Math.floor(rebuilt.position().z)]).toEqual([0, 0]);
    } finally {
      await crashed.close();
    }
  });

  it('a step interrupted by a crash is achieved only when its journaled expectations hold in the live world; otherwise it runs again', async () => {
    const crashed = await crashDuring('dig', expectingRegistry());
    try {
      const point = await resumePoint(crashed, 'p');
      expect(point.plan.steps.map((s) => s.stepId)).toEqual(['dig', 'walk']);
      const dig = async () => (await stepsOf(crashed, 'p')).find((s) => s.step_id === 'dig')!;
      expect(JSON.parse((await dig()).expectations!)).toEqual([
        { kind: 'block', at: { x: 1, y: 0, z: 0 }, oneOf: ['air'] },
      ]);
      const report = validatePlan(point.plan, expectingRegistry());
      if (!report.ok) throw new Error('the resumed plan should validate');

      // The dig never landed in this world: the dirt is still there, so it is not settled.
      const untouched = startWorld(new ManualClock());
      const notYet = await verifyInterruptedSteps(crashed, 'p', report.steps, untouched);
      expect(notYet.achieved).toEqual([]);
      expect(notYet.rerun).toEqual([
        { stepId: 'dig', why: 'not in the live world: the block at (1, 0, 0) is empty (air): it holds dirt' },
      ]);
      expect((await dig()).status).toBe('pending');

      // It landed before the crash: the block is air in the live world, so dig is achieved, and walk (never dispatched)
      // is not checked.
      const dug = SimWorld.create({ clock: new ManualClock(), inventory: { oak_planks: 4 } });
      const landed = await verifyInterruptedSteps(crashed, 'p', report.steps, dug);
      expect(landed).toEqual({
        achieved: [{ stepId: 'dig', held: ['the block at (1, 0, 0) is empty (air)'] }],
        rerun: [],
      });
      expect((await resumePoint(crashed, 'p')).plan.steps.map((s) => s.stepId)).toEqual(['walk']);
    } finally {
      await crashed.close();
    }
  });

  it('a step whose capability declares no expectations is never called achieved on resume: it runs again', async () => {
    const crashed = await crashDuring('dig', acceptanceOnlyRegistry());
    try {
      const report = validatePlan((await resumePoint(crashed, 'p')).plan, acceptanceOnlyRegistry());
      if (!report.ok) throw new Error('the resumed plan should validate');
      const dug = SimWorld.create({ clock: new ManualClock(), inventory: { oak_planks: 4 } });
      const verdicts = await verifyInterruptedSteps(crashed, 'p', report.steps, dug);
      expect(verdicts.achieved).toEqual([]);
      expect(verdicts.rerun).toEqual([{ stepId: 'dig', why: 'dig_block@1.0.0 declares no expectations to check' }]);
    } finally {
      await crashed.close();
    }
  });

  it('a step that succeeded after the world was last saved is not trusted: set back to pending, its idempotency key forgotten', async () => {
    const { journal } = openTemp();
    await runOn(journal, startWorld);
    const provenance = (await journal.planProvenance('p'))!;
    const runStartedAt = provenance.runs[0]!.started_at;
    const walk = provenance.steps.find((s) => s.step.step_id === 'walk')!;
    const walkAt = Math.max(...walk.transitions.filter((t) => t.to_status === 'succeeded').map((t) => t.at));
    expect(await distrustUnsavedSteps(journal, 'p', walkAt)).toEqual([]);
    // Saved last before the run began: nothing it did is on disk.
    expect(await distrustUnsavedSteps(journal, 'p', runStartedAt - 1)).toEqual(['planks', 'dig', 'walk']);
    expect((await stepsOf(journal, 'p')).filter((s) => s.status === 'pending')).toHaveLength(3);
    expect(await journal.completedKeys()).toEqual([]);
  });

  it('names the fix when a plan cannot be resumed', async () => {
    const { journal } = openTemp();
    await expect(resumePoint(journal, 'ghost')).rejects.toThrow(ResumeError);
    await expect(resumePoint(journal, 'ghost')).rejects.toThrow(
      'no plan "ghost" in the journal; `verbtree runs` lists the journaled plans',
    );
  });
});
