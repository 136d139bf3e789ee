import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import { cliProcess as cli, finished } from './cli-process.js';
import { stepFields, tempJournalPath } from './helpers.js';

const plan = {
  planId: 'crash-plan',
  intentId: 'crash-intent',
  steps: [
    { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 }, idempotencyKey: 'crash-planks' },
    { stepId: 'walk-far', type: 'navigate', args: { target: { kind: 'block', x: 7, y: 5, z: 0 } } },
    { stepId: 'walk-back', type: 'navigate', args: { target: { kind: 'block', x: 0, y: 5, z: 0 } } },
  ],
};
const scenario = { name: 'crash', spawn: { x: 0, y: 5, z: 0 }, bot: { inventory: { oak_log: 2 } } };

describe('crash recovery with real processes', () => {
  it('a runner killed mid-step leaves an orphan that the next process records, recovers and completes, losing no row and redoing no effect', async () => {
    const journalPath = tempJournalPath();
    const planFile = join(dirname(journalPath), 'crash.plan.json');
    const scenarioFile = join(dirname(journalPath), 'crash.scenario.json');
    writeFileSync(planFile, JSON.stringify(plan));
    writeFileSync(scenarioFile, JSON.stringify(scenario));

    // 1. A runner starts the plan and is killed once walk-far has begun moving.
    const first = cli([
      'run',
      planFile,
      '--world',
      'sim',
      '--scenario',
      scenarioFile,
      '--journal',
      journalPath,
      '--json',
    ]);
    const ended = finished(first);
    const printed: { type: string; stepId?: string }[] = [];
    for await (const line of createInterface({ input: first.stdout! })) {
      const event = JSON.parse(line) as { type: string; stepId?: string };
      printed.push(event);
      if (event.type === 'step.firstAction' && event.stepId === 'walk-far') {
        first.kill('SIGKILL');
        break;
      }
    }
    const killed = await ended;
    expect(killed.signal).toBe('SIGKILL');

    const before = await openJournal(journalPath, { mustExist: true });
    expect(await stepFields(before, 'crash-plan', 'step_id', 'status')).toEqual([
      { step_id: 'planks', status: 'succeeded' },
      { step_id: 'walk-far', status: 'in_progress' },
      { step_id: 'walk-back', status: 'pending' },
    ]);
    // No row lost: every event the killed runner printed had been journaled before it was printed.
    const journaled = (await before.eventHistory('crash-plan', { after: 0, limit: 1000 }))!.rows;
    expect(journaled.map((e) => [e.type, (e.event as { stepId?: string }).stepId])).toEqual(
      expect.arrayContaining(printed.map((e) => [e.type, e.stepId])),
    );
    expect(journaled.length).toBeGreaterThanOrEqual(printed.length);
    await before.close();

    // 2. A health check in a new process finds the dead runner and the orphan, and resets it.
    const check = await finished(cli(['health', 'check', '--journal', journalPath, '--json']));
    expect(check.code, check.err).toBe(0);
    const report = JSON.parse(check.out) as { findings: { mode: string }[] };
    expect(report.findings.map((f) => f.mode)).toEqual(['dead_runner', 'orphaned_step']);
    expect(report.findings[1]).toMatchObject({ stepId: 'walk-far', action: 'reset to pending (interruption 1 of 3)' });

    // 3. A resumed run skips what succeeded and completes the rest.
    const resumed = await finished(cli(['run', '--resume', 'crash-plan', '--journal', journalPath]));
    expect(resumed.code, `${resumed.out}\n${resumed.err}`).toBe(0);
    expect(resumed.out).toContain('resuming plan crash-plan: done planks; skipped –; to run walk-far, walk-back');

    const after = await openJournal(journalPath, { mustExist: true });
    try {
      expect(await stepFields(after, 'crash-plan', 'step_id', 'status')).toEqual([
        { step_id: 'planks', status: 'succeeded' },
        { step_id: 'walk-far', status: 'succeeded' },
        { step_id: 'walk-back', status: 'succeeded' },
      ]);
      const provenance = (await after.planProvenance('crash-plan'))!;
      expect(provenance.plan.status).toBe('succeeded');
      const runs = provenance.runs.map(({ resumed, ok, code }) => ({ resumed, ok, code }));
      expect(runs).toEqual([
        { resumed: 0, ok: 0, code: 'interrupted' },
        { resumed: 1, ok: 1, code: null },
      ]);
      const incidents = (await after.listIncidents()).incidents.reverse();
      expect(incidents.map((i) => [i.failure_mode, i.step_id, i.resolved_at !== null])).toEqual([
        ['dead_runner', null, true],
        ['orphaned_step', 'walk-far', true],
        // The killed runner still held the plan's lease; its process is gone, so the resume took it over.
        ['lease_takeover', null, true],
      ]);
      expect(incidents[2]!.resolution).toMatch(
        new RegExp(`^taken over by pid \\d+ on .+ \\(resume\\): its process ${first.pid} is gone$`),
      );
      expect(await after.planLeaseHolder('crash-plan')).toBeUndefined();
      const attempts = provenance.steps
        .flatMap((s) => s.attempts)
        .sort((a, b) => a.id - b.id)
        .map(({ step_id, number, outcome }) => ({ step_id, number, outcome }));
      expect(attempts).toEqual([
        { step_id: 'planks', number: 1, outcome: 'ok' },
        { step_id: 'walk-far', number: 1, outcome: 'orphaned' },
        { step_id: 'walk-far', number: 2, outcome: 'ok' },
        { step_id: 'walk-back', number: 1, outcome: 'ok' },
      ]);
      // No effect twice: one craft in the whole action trace, one effect per step, and the logs were spent once.
      const actions = provenance.steps.flatMap((s) => s.attempts.flatMap((a) => a.actions));
      expect(actions.filter((a) => a.command === 'craft')).toHaveLength(1);
      const effects = provenance.steps.flatMap((s) => s.effects).sort((a, b) => a.id - b.id);
      expect(effects.map((e) => e.step_id)).toEqual(['planks', 'walk-far', 'walk-back']);
      const final = JSON.parse(effects.at(-1)!.post) as { inventory: unknown; position: { x: number } };
      expect(final.inventory).toEqual({ oak_log: 1, oak_planks: 4 });
      expect(Math.floor(final.position.x)).toBe(0);
    } finally {
      await after.close();
    }
  }, 30_000);

  it('Ctrl-C cancels the running step and journals its end: nothing is left for a health check to recover', async () => {
    const journalPath = tempJournalPath();
    const planFile = join(dirname(journalPath), 'walk.plan.json');
    writeFileSync(planFile, JSON.stringify({ planId: 'walk', intentId: 'i', steps: [plan.steps[1], plan.steps[2]] }));
    const child = cli(['run', planFile, '--world', 'sim', '--journal', journalPath, '--json']);
    const ended = finished(child);
    for await (const line of createInterface({ input: child.stdout! })) {
      const event = JSON.parse(line) as { type: string; stepId?: string };
      if (event.type === 'step.firstAction') {
        child.kill('SIGINT');
        break;
      }
    }
    const exit = await ended;
    expect(exit.code, exit.err).toBe(1);
    expect(exit.err).toContain('SIGINT: cancelling the running step');
    const journal = await openJournal(journalPath, { mustExist: true });
    try {
      expect(await stepFields(journal, 'walk', 'step_id', 'status', 'outcome_code')).toEqual([
        { step_id: 'walk-far', status: 'failed', outcome_code: 'aborted' },
        { step_id: 'walk-back', status: 'pending', outcome_code: null },
      ]);
      expect(await journal.listRuns()).toMatchObject([{ runner_status: 'stopped', ok: 0, code: 'aborted' }]);
    } finally {
      await journal.close();
    }
    const check = await finished(cli(['health', 'check', '--journal', journalPath, '--json']));
    expect((JSON.parse(check.out) as { findings: unknown[] }).findings).toEqual([]);
  }, 30_000);
});
