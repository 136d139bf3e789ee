import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import { cli } from '../helpers/cli.js';
import { cliProcess, finished, untilEvent } from '../journal/cli-process.js';
import { tempJournalPath } from '../journal/helpers.js';

const pickPlan = {
  planId: 'pick',
  intentId: 'i',
  steps: [
    { stepId: 'dig', type: 'dig_block', args: { position: { x: 2, y: 5, z: 0 }, block: 'dirt' } },
    { stepId: 'collect', type: 'collect_drops', args: { item: 'dirt' } },
  ],
};
const pickScenario = { name: 'pick', spawn: { x: 0, y: 5, z: 0 }, blocks: [{ x: 2, y: 5, z: 0, block: 'dirt' }] };

function files(journalPath: string, plan: unknown = pickPlan, scenario: unknown = pickScenario) {
  const planFile = join(dirname(journalPath), 'plan.json');
  const scenarioFile = join(dirname(journalPath), 'scenario.json');
  writeFileSync(planFile, JSON.stringify(plan));
  writeFileSync(scenarioFile, JSON.stringify(scenario));
  return { planFile, scenarioFile };
}

describe('run --resume tells the truth', () => {
  it('after a SIGKILL on a sim world, a dig and pick-up that never happened in this run are not settled from an earlier run of the same plan', async () => {
    const journalPath = tempJournalPath();
    const { planFile, scenarioFile } = files(journalPath);
    // 1. The plan runs to the end once: dirt dug and picked up.
    const first = await cli('run', planFile, '--world', 'sim', '--scenario', scenarioFile, '--journal', journalPath);
    expect(first.code, first.out + first.err).toBe(0);
    // 2. It runs again in a new world, and is killed while digging.
    const second = cliProcess([
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
    const ended = finished(second);
    await untilEvent(second, (e) => e.type === 'step.firstAction' && e.stepId === 'dig');
    second.kill('SIGKILL');
    expect((await ended).signal).toBe('SIGKILL');
    // 3. The resume rebuilds this run's world (nothing achieved yet), so the dig and the pick-up run again.
    const resumed = await cli('run', '--resume', 'pick', '--journal', journalPath);
    expect(resumed.code, resumed.out + resumed.err).toBe(0);
    expect(resumed.out).not.toContain('already achieved');
    expect(resumed.out).toContain(
      'runs again: dig: not in the live world: the block at (2, 5, 0) is empty (air): it holds dirt',
    );
    const journal = await openJournal(journalPath, { mustExist: true });
    try {
      const provenance = (await journal.planProvenance('pick'))!;
      const resumedRun = provenance.runs.at(-1)!.id;
      const attempts = provenance.steps.flatMap((s) => s.attempts).sort((a, b) => a.id - b.id);
      expect(attempts.filter((a) => a.run_id === resumedRun).map((a) => [a.step_id, a.outcome])).toEqual([
        ['dig', 'ok'],
        ['collect', 'ok'],
      ]);
      // One dirt block, picked up once in this line of runs: not the first run's dirt carried over.
      const last = provenance.steps
        .flatMap((s) => s.effects)
        .sort((a, b) => a.id - b.id)
        .at(-1)!;
      expect((JSON.parse(last.post) as { inventory: unknown }).inventory).toEqual({ dirt: 1 });
    } finally {
      await journal.close();
    }
  }, 60_000);

  it('refuses to resume in a world that cannot be the same one, naming why; --restart runs the plan again from its first step as a new run', async () => {
    const journalPath = tempJournalPath();
    // The plan fails in a world without the dirt; then the scenario file is fixed.
    const { planFile, scenarioFile } = files(journalPath, pickPlan, { ...pickScenario, blocks: [] });
    const failed = await cli('run', planFile, '--world', 'sim', '--scenario', scenarioFile, '--journal', journalPath);
    expect(failed.code).toBe(1);
    writeFileSync(scenarioFile, JSON.stringify(pickScenario));

    const refused = await cli('run', '--resume', 'pick', '--journal', journalPath);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      new RegExp(
        `cannot resume plan "pick" in the same world: its scenario file ${scenarioFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} changed since the plan ran \\(sha256 [0-9a-f]{12} then, [0-9a-f]{12} now\\), so a rebuilt SimWorld would be another world; run it again from its first step with \`verbtree run --resume pick --restart\``,
      ),
    );

    const restarted = await cli('run', '--resume', 'pick', '--restart', '--journal', journalPath);
    expect(restarted.code, restarted.out + restarted.err).toBe(0);
    expect(restarted.out).toContain('restarting plan pick from its first step as a new run');
    const journal = await openJournal(journalPath, { mustExist: true });
    try {
      const provenance = (await journal.planProvenance('pick'))!;
      expect(provenance.runs.map(({ resumed, ok }) => ({ resumed, ok }))).toEqual([
        { resumed: 0, ok: 0 },
        { resumed: 0, ok: 1 },
      ]);
      // The new run journals the world it ran in: the scenario as it is now.
      const world = JSON.parse(provenance.plan.world!) as unknown;
      expect(world).toMatchObject({ world: 'sim', seed: 1, scenario: { path: scenarioFile } });
      expect((await cli('run', '--resume', 'pick', '--journal', journalPath)).err).toContain(
        'plan "pick" already succeeded; nothing to resume',
      );
    } finally {
      await journal.close();
    }
  }, 60_000);

  it('refuses to resume an embedded plan whose world folder is gone or holds another world, and one journaled without its world', async () => {
    const journalPath = tempJournalPath();
    const journal = await openJournal(journalPath);
    const steps = [pickPlan.steps[0]!];
    const folder = join(dirname(journalPath), 'worlds', 'gone');
    const embedded = {
      world: 'embedded',
      seed: 1,
      worldFolder: folder,
      worldId: 'w-1',
      managed: true,
      username: 'verbtree',
      version: '1.21.4',
      isolate: false,
      identity: `embedded world w-1 in ${folder}`,
    };
    // Two plans that ran and failed: one in an embedded world kept in a folder, one journaled without its world.
    for (const [planId, world] of [
      ['gone', embedded],
      ['unknown', undefined],
    ] as const) {
      const body = { planId, intentId: 'i', steps };
      await journal.beginRun({ planId, intentId: 'i', steps, body, runnerId: null, ...(world ? { world } : {}) });
      await journal.setPlanStatus(planId, 'failed');
    }
    await journal.close();

    const gone = await cli('run', '--resume', 'gone', '--journal', journalPath);
    expect(gone.code).toBe(2);
    expect(gone.err).toContain(
      `cannot resume plan "gone" in the same world: its world folder ${folder} is gone (or holds no verbtree world); run it again from its first step with \`verbtree run --resume gone --restart\``,
    );
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'verbtree-world.json'),
      JSON.stringify({ worldId: 'w-2', createdAt: 0, scenario: 'other' }),
    );
    expect((await cli('run', '--resume', 'gone', '--journal', journalPath)).err).toContain(
      `its world folder ${folder} now holds another world (id w-2, the plan ran in w-1)`,
    );
    const unknown = await cli('run', '--resume', 'unknown', '--journal', journalPath);
    expect(unknown.err).toContain(
      'plan "unknown" was journaled without the identity of the world it ran in (no world recorded), so a resume cannot tell whether this is the same world; run it again from its first step with `verbtree run --resume unknown --restart`',
    );
  });

  it('two processes never run one plan at once: a resume during a live run, and a resume during a live resume, lose with the holder named', async () => {
    const journalPath = tempJournalPath();
    const { planFile, scenarioFile } = files(journalPath);
    const held = (pid: number, kind: string) =>
      new RegExp(
        `plan "pick" is held by pid ${pid} on ${hostname()} \\(verbtree ${kind}\\) since \\S+ \\(last heartbeat \\d+s ago\\)`,
      );
    // A run that hangs in its first step holds the plan.
    const running = cliProcess([
      'run',
      planFile,
      '--world',
      'sim',
      '--scenario',
      scenarioFile,
      '--journal',
      journalPath,
      '--json',
      '--fault',
      'dig_block=hang',
    ]);
    const runEnded = finished(running);
    await untilEvent(running, (e) => e.type === 'attempt.started');
    const early = await finished(cliProcess(['run', '--resume', 'pick', '--journal', journalPath]));
    expect(early.code).toBe(2);
    expect(early.err).toMatch(held(running.pid!, 'run'));
    running.kill('SIGKILL');
    await runEnded;

    // Its process gone, a resume takes the plan over; while it hangs too, a second resume loses to it.
    const resuming = cliProcess([
      'run',
      '--resume',
      'pick',
      '--journal',
      journalPath,
      '--json',
      '--fault',
      'dig_block=hang',
    ]);
    const resumeEnded = finished(resuming);
    await untilEvent(resuming, (e) => e.type === 'attempt.started');
    const second = await finished(cliProcess(['run', '--resume', 'pick', '--journal', journalPath]));
    expect(second.code).toBe(2);
    expect(second.err).toMatch(held(resuming.pid!, 'resume'));
    resuming.kill('SIGKILL');
    await resumeEnded;

    const journal = await openJournal(journalPath, { mustExist: true });
    try {
      const takeovers = (await journal.listIncidents()).incidents.filter((i) => i.failure_mode === 'lease_takeover');
      expect(takeovers.map((i) => (JSON.parse(i.details!) as { from: { pid: number } }).from.pid)).toEqual([
        running.pid,
      ]);
      // The losers changed nothing: two runs in the journal, the killed run's and the killed resume's.
      expect(await journal.listRuns()).toHaveLength(2);
    } finally {
      await journal.close();
    }
  }, 90_000);

  it('recovery paused by the incidents-per-hour cap is overridden for one resume only when asked, and the override is an incident', async () => {
    const journalPath = tempJournalPath();
    const { planFile, scenarioFile } = files(journalPath);
    const running = cliProcess([
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
    const ended = finished(running);
    await untilEvent(running, (e) => e.type === 'step.firstAction' && e.stepId === 'dig');
    running.kill('SIGKILL');
    await ended;
    const journal = await openJournal(journalPath, { mustExist: true });
    for (let i = 0; i < 11; i++) await journal.openIncident({ mode: 'zombie_runner', details: { earlier: i } });
    await journal.close();

    const paused = await cli('run', '--resume', 'pick', '--journal', journalPath);
    expect(paused.code).toBe(2);
    expect(paused.err).toContain('still has step in progress (dig)');
    expect(paused.err).toContain(
      'to recover past the incidents-per-hour cap for this resume only, add --override-incident-cap (recorded as an incident)',
    );

    const overridden = await cli('run', '--resume', 'pick', '--journal', journalPath, '--override-incident-cap');
    expect(overridden.code, overridden.out + overridden.err).toBe(0);
    expect(overridden.out).toMatch(
      /--override-incident-cap: 1 finding recovered past the cap \(recorded as incident \d+\)/,
    );
    const after = await openJournal(journalPath, { mustExist: true });
    try {
      const override = (await after.listIncidents()).incidents.find((i) => i.failure_mode === 'incident_cap_override');
      expect(override).toMatchObject({
        plan_id: 'pick',
        resolution: 'recovery ran past the incidents-per-hour cap for one resume of pick (--override-incident-cap)',
      });
      expect((await after.plan('pick'))?.status).toBe('succeeded');
    } finally {
      await after.close();
    }
  }, 60_000);
});
