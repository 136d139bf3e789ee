import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import type { Planner } from '../../src/executor/planner.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { SqliteJournal } from '../../src/journal/sqlite/sqlite-journal.js';
import { loadScenario } from '../../src/world/scenario/load.js';
import { simWorldFromScenario } from '../../src/world/sim-scenario.js';
import { simIdentity } from '../../src/cli/worlds/sim.js';
import { scenarioRef } from '../../src/cli/worlds/kind.js';
import { cli } from '../helpers/cli.js';
import { asIfWrittenBy, crashCopy, stepFields, stepsOf, tempJournalPath } from './helpers.js';
import { match } from '../helpers/matchers.js';

const plan = {
  planId: 'esc',
  intentId: 'i-esc',
  steps: [
    { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } },
    // Nothing to dig up in the air: fails past repair, and the planner is asked.
    { stepId: 'dig-air', type: 'dig_block', args: { position: { x: 2, y: 12, z: 2 }, block: 'dirt' } },
    { stepId: 'wander', type: 'navigate', args: { target: { kind: 'block', x: -4, y: 5, z: -4 } } },
  ],
};

const replacement = [
  { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 3, y: 5, z: 2 } } },
  { stepId: 'sticks', type: 'craft_item', args: { item: 'stick', count: 4 }, idempotencyKey: 'sticks-once' },
];

describe('resume after an escalation', () => {
  it('continues with the planner’s replacement steps (started or not), not the original plan body', async () => {
    const path = tempJournalPath();
    const scenarioPath = join(dirname(path), 'scenario.json');
    writeFileSync(scenarioPath, JSON.stringify({ name: 'logs', bot: { inventory: { oak_log: 1 } } }));
    const snapshot = join(dirname(path), 'at-crash.db');

    // 1. A run whose third step is replaced on escalation; the journal is copied as it stands at the replacement's
    // first action.
    const journal = SqliteJournal.open(path);
    const clock = new ManualClock();
    const world = simWorldFromScenario(await loadScenario(scenarioPath), { clock, seed: 1 });
    const asked: string[] = [];
    const planner: Planner = {
      name: 'scripted',
      onFailure: (context) => {
        asked.push(context.failedStep.stepId);
        return Promise.resolve({ steps: replacement });
      },
    };
    const scenario = scenarioRef(scenarioPath);
    const worldDescriptor = { world: 'sim', seed: 1, scenario, identity: simIdentity(1, scenario.sha256) };
    const assembly = await assembleJournaled({
      registry: createDefaultRegistry(),
      world,
      clock,
      journal,
      kind: 'test',
      planner,
      worldDescriptor,
    });
    assembly.executor.events.on('event', (event) => {
      // Every write is committed synchronously: this copy is what a SIGKILL at this moment leaves on disk.
      if (event.type === 'step.firstAction' && event.stepId === 'walk') crashCopy(journal, snapshot);
    });
    let done = false;
    const run = await assembly.run(plan);
    void run.result.then(() => (done = true));
    await clock.runUntil(() => done, 600_000);
    expect(asked).toEqual(['dig-air']);
    await assembly.close();
    await journal.close();

    // 2. In the copy, the runner's process is gone (a real, exited pid) and `walk` is in progress.
    const crashed = SqliteJournal.open(snapshot);
    // The copy was taken while the run held the plan's lease: its holder is that dead process too.
    asIfWrittenBy(crashed, spawnSync(process.execPath, ['-e', '0']).pid, hostname());
    const before = await stepsOf(crashed, 'esc');
    expect(before.map((s) => [s.step_id, s.status])).toEqual([
      ['planks', 'succeeded'],
      ['dig-air', 'failed'],
      ['wander', 'pending'],
      ['walk', 'in_progress'],
      ['sticks', 'pending'],
    ]);
    expect(JSON.parse(before.find((s) => s.step_id === 'sticks')!.args!)).toEqual({ item: 'stick', count: 4 });
    await crashed.close();

    // 3. `verbtree run --resume` (no planner) recovers the orphan and runs the replacement, never the superseded
    // original steps.
    const resumed = await cli('run', '--resume', 'esc', '--journal', snapshot);
    expect(resumed.code, `${resumed.out}\n${resumed.err}`).toBe(0);
    expect(resumed.out).toContain('journal: orphaned_step');
    expect(resumed.out).toContain('continuing the replacement planner scripted sent at rung 1 after dig-air failed');
    expect(resumed.out).toContain('resuming plan esc: done planks; skipped –; to run walk, sticks');
    const after = SqliteJournal.open(snapshot);
    expect(await stepFields(after, 'esc', 'step_id', 'status')).toEqual([
      { step_id: 'planks', status: 'succeeded' },
      { step_id: 'dig-air', status: 'failed' },
      { step_id: 'wander', status: 'pending' },
      { step_id: 'walk', status: 'succeeded' },
      { step_id: 'sticks', status: 'succeeded' },
    ]);
    const provenance = (await after.planProvenance('esc'))!;
    const attempts = provenance.steps.flatMap((s) => s.attempts);
    expect(attempts.filter((a) => ['wander', 'dig-air'].includes(a.step_id) && a.run_id! > 1)).toEqual([]);
    expect(attempts.flatMap((a) => a.actions).filter((a) => a.command === 'craft')).toHaveLength(2);
    expect(provenance.plan.status).toBe('succeeded');
    await after.close();

    const show = JSON.parse((await cli('show', 'esc', '--journal', snapshot, '--json')).out) as { revisions: unknown };
    expect(show.revisions).toEqual([
      expect.objectContaining({
        planner: 'scripted',
        rung: 1,
        failed_step_id: 'dig-air',
        adopted_at: match.any(Number),
      }),
    ]);
  });
});
