import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import type { ExecutorEvent } from '../../src/executor/events.js';
import { JournalIdempotencyStore } from '../../src/journal/journal-idempotency.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { ResumeError, resumePoint, settleAchievedSteps } from '../../src/journal/resume.js';
import { simWorldFromJournal } from '../../src/journal/sim-restore.js';
import { validatePlan } from '../../src/validate/validate-plan.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp } from './helpers.js';

const registry = createDefaultRegistry();
const plan = {
  planId: 'p',
  intentId: 'i',
  steps: [
    { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 }, idempotencyKey: 'k-planks' },
    { stepId: 'dig', type: 'dig_block', args: { position: { x: 1, y: 0, z: 0 }, block: 'dirt' } },
    { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 3, y: 0, z: 2 } } },
  ],
};

async function runOn(journal: ReturnType<typeof openTemp>['journal'], world: (clock: ManualClock) => SimWorld, input: unknown = plan) {
  const clock = new ManualClock();
  const assembly = await assembleJournaled({ registry, world: world(clock), clock, journal, kind: 'test' });
  const events: ExecutorEvent[] = [];
  assembly.executor.events.on('event', (e) => events.push(e));
  let done = false;
  const run = assembly.run(input);
  void run.result.then(() => (done = true));
  await clock.runUntil(() => done, 120_000);
  await assembly.close();
  return { result: await run.result, events, assembly };
}

/** A world with a log to craft from and a dirt block standing at x=1. */
const startWorld = (clock: ManualClock) => SimWorld.create({ clock, inventory: { oak_log: 1 } }).setBlock({ x: 1, y: 0, z: 0 }, 'dirt');

describe('resume', () => {
  it('a completed idempotency key survives the process: a new executor on the journal refuses to craft again', async () => {
    const { journal } = openTemp();
    await runOn(journal, startWorld);
    expect(new JournalIdempotencyStore(journal).state('k-planks')).toBe('completed');
    const again = await runOn(journal, (clock) => SimWorld.create({ clock, inventory: { oak_log: 1 } }), { ...plan, planId: 'p2', steps: [plan.steps[0]] });
    expect(again.result.ok).toBe(true);
    expect(again.events.find((e) => e.type === 'step.refused')).toMatchObject({ idempotencyKey: 'k-planks', state: 'completed' });
    expect(journal.sql("SELECT COUNT(*) AS n FROM actions WHERE command = 'craft'").get()).toEqual({ n: 1 });
  });

  it('rebuilds a sim world from the effects of completed steps: blocks changed, the bot as the last step left it', async () => {
    const { journal } = openTemp();
    await runOn(journal, startWorld);
    const clock = new ManualClock();
    const rebuilt = simWorldFromJournal(journal, 'p', { clock, seed: 1 });
    expect(rebuilt.blockAt({ x: 1, y: 0, z: 0 })?.name).toBe('air');
    // The dug dirt was picked up on the walk: the inventory is the last step's, not the start's.
    expect(rebuilt.inventory()).toEqual({ oak_planks: 4, dirt: 1 });
    expect([Math.floor(rebuilt.position().x), Math.floor(rebuilt.position().z)]).toEqual([3, 2]);
  });

  it('after a crash, resumes from the first unfinished step, and settles a reset step whose effect already happened', async () => {
    const { journal } = openTemp();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    // What a runner killed during "dig" leaves: planks done, dig in progress, walk pending.
    journal.sql("INSERT INTO runners (id, pid, host, kind, status, started_at, last_heartbeat) VALUES ('r', ?, ?, 'run', 'running', 0, 0)").run(dead, (await import('node:os')).hostname());
    journal.sql("INSERT INTO plans (plan_id, intent_id, body, status, created_at, updated_at) VALUES ('p', 'i', ?, 'running', 0, 0)").run(JSON.stringify(plan));
    journal.sql("INSERT INTO runs (plan_id, runner_id, started_at) VALUES ('p', 'r', 0)").run();
    const pre = { position: { x: 0.5, y: 0, z: 0.5 }, health: 20, food: 20, inventory: { oak_planks: 4 }, heldItem: null, blocks: { '1,0,0': 'dirt' } };
    journal.sql("INSERT INTO steps (plan_id, step_id, seq, verb, status, run_id, updated_at) VALUES ('p', 'planks', 0, 'craft_item', 'succeeded', 1, 0)").run();
    journal.sql("INSERT INTO steps (plan_id, step_id, seq, verb, status, run_id, pre, updated_at) VALUES ('p', 'dig', 1, 'dig_block', 'in_progress', 1, ?, 0)").run(JSON.stringify(pre));
    journal.sql("INSERT INTO steps (plan_id, step_id, seq, verb, status, updated_at) VALUES ('p', 'walk', 2, 'navigate', 'pending', 0)").run();
    expect(() => resumePoint(journal, 'p')).toThrow(/still has step in progress \(dig\)/);

    // An executor starting on this journal finds the dead runner (a real, exited pid) and recovers the orphan.
    const clock = new ManualClock();
    const starting = await assembleJournaled({ registry, world: SimWorld.create({ clock }), clock, journal, kind: 'test' });
    await starting.close();
    expect(starting.startup.findings.map((f) => [f.mode, f.stepId ?? null])).toEqual([
      ['dead_runner', null],
      ['orphaned_step', 'dig'],
    ]);
    const point = resumePoint(journal, 'p');
    expect(point.done).toEqual(['planks']);
    expect(point.plan.steps.map((s) => s.stepId)).toEqual(['dig', 'walk']);

    // The dirt is already gone in this world (the dig landed before the crash): acceptance holds, dig is not redone.
    const world = SimWorld.create({ clock, inventory: { oak_planks: 4 } });
    const report = validatePlan(point.plan, registry);
    if (!report.ok) throw new Error('the resumed plan should validate');
    expect(await settleAchievedSteps(journal, 'p', report.steps, world)).toEqual(['dig']);
    expect(resumePoint(journal, 'p').plan.steps.map((s) => s.stepId)).toEqual(['walk']);
    // walk has no journaled pre-snapshot (never dispatched): it is never settled by acceptance.
    expect(await settleAchievedSteps(journal, 'p', report.steps.slice(1), world)).toEqual([]);
  });

  it('names the fix when a plan cannot be resumed', () => {
    const { journal } = openTemp();
    expect(() => resumePoint(journal, 'ghost')).toThrow(ResumeError);
    expect(() => resumePoint(journal, 'ghost')).toThrow('no plan "ghost" in the journal; `verbtree runs` lists the journaled plans');
  });
});
