import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteJournal } from '../../src/journal/sqlite/sqlite-journal.js';
import { tempJournalPath } from '../journal/helpers.js';
import { crashedMidStep } from '../journal/seed.js';
import { cli } from '../helpers/cli.js';

const plan = {
  planId: 'cli-plan',
  intentId: 'cli-intent',
  steps: [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }],
};

function files() {
  const journal = tempJournalPath();
  const planFile = join(dirname(journal), 'plan.json');
  const scenario = join(dirname(journal), 'scenario.json');
  writeFileSync(planFile, JSON.stringify(plan));
  writeFileSync(scenario, JSON.stringify({ name: 'logs', bot: { inventory: { oak_log: 1 } } }));
  return { journal, planFile, scenario };
}

/** What a runner killed mid-step leaves behind: its pid gone, its step in progress. */
async function leaveOrphan(path: string): Promise<void> {
  const journal = SqliteJournal.open(path);
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  await crashedMidStep(journal, { runner: 'gone', pid: dead, planId: 'crashed', step: 'planks', verb: 'craft_item' });
  await journal.close();
}

describe('verbtree run --journal, runs, show', () => {
  it('journals a run that runs and show then report, step by step', async () => {
    const { journal, planFile, scenario } = files();
    const run = await cli('run', planFile, '--world', 'sim', '--scenario', scenario, '--journal', journal);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toContain(`journal: ${journal}`);

    const runs = await cli('runs', '--journal', journal);
    expect(runs.code).toBe(0);
    expect(runs.out).toMatch(/│ 1\s+│ cli-plan\s+│ succeeded\s+│ 1\/1/);

    const show = await cli('show', 'cli-plan', '--journal', journal);
    expect(show.code).toBe(0);
    expect(show.out).toContain('plan cli-plan: succeeded');
    expect(show.out).toMatch(/• planks {2}craft_item@1\.0\.0 {2}succeeded/);
    expect(show.out).toContain('craft {"item":"oak_planks","times":1,"table":null}');
    expect(show.out).toContain('effects: bot at (0.5, 5.0, 0.5), inventory 4 oak_planks');
    const json = JSON.parse((await cli('show', 'cli-plan', '--journal', journal, '--json')).out) as {
      steps: { attempts: { actions: { command: string }[] }[] }[];
    };
    expect(json.steps[0]!.attempts[0]!.actions[0]!.command).toBe('craft');

    const unknown = await cli('show', 'nope', '--journal', journal);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('no plan "nope"');
  });

  it('refuses contradictory or impossible resumes with exit 2 and a fix', async () => {
    const { journal, planFile } = files();
    expect((await cli('run')).err).toContain('give a plan file, or --resume <planId>');
    expect((await cli('run', planFile, '--resume', 'x', '--journal', journal)).code).toBe(2);
    await SqliteJournal.open(journal).close();
    const ghost = await cli('run', '--resume', 'ghost', '--journal', journal);
    expect(ghost.code).toBe(2);
    expect(ghost.err).toContain('no plan "ghost" in the journal');
    await leaveOrphan(journal);
    // The plan is interrupted (recovered at the new runner's start): a fresh run must not silently restart it.
    const fresh = await cli(
      'run',
      planFile.replace('plan.json', 'crashed.json'),
      '--world',
      'sim',
      '--journal',
      journal,
    );
    expect(fresh.code).toBe(2);
    writeFileSync(planFile.replace('plan.json', 'crashed.json'), JSON.stringify({ ...plan, planId: 'crashed' }));
    const again = await cli(
      'run',
      planFile.replace('plan.json', 'crashed.json'),
      '--world',
      'sim',
      '--journal',
      journal,
    );
    expect(again.code).toBe(2);
    expect(again.err).toContain(
      'plan "crashed" is interrupted in the journal; continue it with `verbtree run --resume crashed`',
    );
  });
});

describe('verbtree health check and incidents', () => {
  it('reports a healthy journal in a box, and a missing journal as a usage error', async () => {
    const { journal } = files();
    expect((await cli('health', 'check', '--journal', journal)).err).toContain(`cannot open the journal at ${journal}`);
    await SqliteJournal.open(journal).close();
    const { code, out } = await cli('health', 'check', '--journal', journal);
    expect(code).toBe(0);
    expect(out).toMatch(/^┌─+┐\n│ HEALTH CHECK REPORT\s+│\n├─+┤/);
    expect(out).toMatch(/│ Status: {4}healthy\s+│/);
    expect(out).toMatch(/│ Orphaned Steps:\s+0 ✓\s+│/);
  });

  it('records and recovers an orphan, then lists, filters and clears incidents', async () => {
    const { journal } = files();
    await leaveOrphan(journal);
    const check = await cli('health', 'check', '--journal', journal);
    expect(check.code).toBe(0);
    expect(check.out).toMatch(/│ Orphaned Steps:\s+1 ✗\s+│/);
    expect(check.out).toMatch(/│ Dead Runners:\s+1 ✗\s+│/);
    expect(check.out).toContain('orphaned_step #2: crashed/planks (craft_item) in progress, its runner pid');
    expect(check.out).toContain('#2: reset to pending (interruption 1 of 3)');

    const listed = await cli('incidents', '--journal', journal);
    expect(listed.out).toContain('2 of 2 incidents');
    const json: unknown = JSON.parse((await cli('incidents', '--journal', journal, '--step', 'pla', '--json')).out);
    expect(json).toMatchObject({
      total: 1,
      incidents: [
        { failure_mode: 'orphaned_step', step_id: 'planks', resolution: 'reset to pending (interruption 1 of 3)' },
      ],
    });
    expect((await cli('incidents', '--journal', journal, '--unresolved')).out).toBe('no incidents\n');

    expect((await cli('incidents', '--journal', journal, '--older-than', '7d')).code).toBe(2);
    expect((await cli('incidents', '--journal', journal, '--clear', '--older-than', 'soon')).err).toContain(
      '--older-than must be a duration such as 7d',
    );
    expect((await cli('incidents', '--journal', journal, '--clear', '--older-than', '7d')).out).toBe(
      'cleared 0 resolved incidents older than 7d\n',
    );
    const executorIncident = SqliteJournal.open(journal);
    const open = await executorIncident.openIncident({
      planId: 'crashed',
      mode: 'escalation_exhausted',
      details: { detail: 'budget used up' },
    });
    await executorIncident.close();
    expect((await cli('incidents', '--journal', journal, '--unresolved')).out).toContain('escalation_exhausted');
    expect(
      (await cli('incidents', '--journal', journal, '--resolve', String(open), '--note', 'replanned by hand')).out,
    ).toBe(`resolved incident #${open}\n`);
    expect((await cli('incidents', '--journal', journal, '--resolve', String(open))).err).toContain(
      `incident #${open} is already resolved: replanned by hand`,
    );
    expect((await cli('incidents', '--journal', journal, '--clear', '--older-than', '0s')).out).toBe(
      'cleared 3 resolved incidents older than 0s\n',
    );
  });

  it('exits 1 when a runner needs an operator (a live process that stopped beating)', async () => {
    const { journal } = files();
    // A live process (this one) whose last beat was at the epoch's start.
    const j = SqliteJournal.open(journal, { now: () => 0 });
    await j.registerRunner({ id: 'stuck', pid: process.pid, host: hostname(), kind: 'serve' });
    await j.close();
    const { code, out } = await cli(
      'health',
      'check',
      '--journal',
      journal,
      '--watch',
      '--interval',
      '1',
      '--count',
      '2',
    );
    expect(code).toBe(1);
    expect(out.match(/HEALTH CHECK REPORT/g)).toHaveLength(2);
    expect(out).toContain(`needs you: none automatic: stop pid ${process.pid}`);
    expect(out).toMatch(/Status: {4}unhealthy/);
  });

  it('shows an example in the help of every journal command', async () => {
    for (const command of [['health', 'check'], ['incidents'], ['runs'], ['show'], ['serve']]) {
      const help = await cli(...command, '--help');
      expect(help.code).toBe(0);
      expect(help.out).toContain('Examples:');
      expect(help.out).toContain(`$ verbtree ${command.join(' ')}`);
    }
  });
});
