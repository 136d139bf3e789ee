import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import type { VersionRun } from '../../src/registry/canary-sla.js';
import { navigateRun } from '../helpers/canary-journal.js';
import { cli } from '../helpers/cli.js';
import { tempJournalPath } from '../journal/helpers.js';

const CANARY_MODULE = fileURLToPath(new URL('../foresight/fixtures/navigate-canary.ts', import.meta.url));

/** A project whose config registers a canary of navigate (9.0.0) and a rule of two runs; a journal beside it. */
function project(extra: Record<string, unknown> = {}): { config: string; journal: string } {
  const journal = tempJournalPath();
  const config = join(dirname(journal), 'verbtree.config.json');
  const canaries = { rule: { minRuns: 2, p95MarginPct: 20 }, ...extra };
  writeFileSync(config, JSON.stringify({ capabilities: [CANARY_MODULE], canaries }));
  return { config, journal };
}

const run = navigateRun;

async function journalWith(path: string, runs: VersionRun[]): Promise<void> {
  const journal = await openJournal(path);
  for (const each of runs) await journal.recordVersionRun(each);
  await journal.close();
}

describe('verbtree registry --sla and promote', () => {
  it('shows the stable version and the canary side by side, with the canary still in shadow', async () => {
    const { config, journal } = project();
    await journalWith(journal, [run('1.0.0', false, true), run('9.0.0', true, true)]);
    const { code, out } = await cli('--config', config, 'registry', '--sla', '--journal', journal);
    expect(code).toBe(0);
    expect(out).toMatch(/navigate\s*│\s*1\.0\.0\s*│\s*stable\s*│\s*sim\s*│\s*1\s*│\s*100%\s*│\s*1000 ms/);
    expect(out).toMatch(/navigate\s*│\s*9\.0\.0\s*│\s*canary \(shadow runs\)\s*│\s*sim\s*│\s*1\s*│\s*100%/);
    expect(out).toContain('shadow: 1 of 2 shadow runs so');
  });

  it('refuses to promote a canary the rule has not marked ready, then promotes it once it is, durably', async () => {
    const { config, journal } = project();
    await journalWith(journal, [run('1.0.0', false, true), run('9.0.0', true, true)]);
    expect(await cli('--config', config, 'registry', 'promote', 'navigate@9.0.0', '--journal', journal)).toEqual({
      code: 2,
      out: '',
      err: "verbtree: promote navigate@9.0.0: not ready by the promotion rule (1 of 2 shadow runs so far); let it run in shadow longer, or list it in the project config's canaries.promote\n",
    });
    await journalWith(journal, [run('1.0.0', false, true), run('9.0.0', true, true)]);
    const promoted = await cli('--config', config, 'registry', 'promote', 'navigate@9.0.0', '--journal', journal);
    expect(promoted).toMatchObject({
      code: 0,
      out: '✓ navigate@9.0.0 acts from now on in place of 1.0.0 (2 shadow runs on sim meet the rule)\n',
    });
    const sla = await cli('--config', config, 'registry', '--sla', '--json', '--journal', journal);
    expect(JSON.parse(sla.out)).toMatchObject([{ verb: 'navigate', version: '9.0.0', state: 'promoted' }]);
  });

  it('names the form, the verb or the version when promote is given bad input', async () => {
    const { config, journal } = project();
    await journalWith(journal, []);
    const promote = (ref: string) => cli('--config', config, 'registry', 'promote', ref, '--journal', journal);
    expect((await promote('navigate')).err).toBe(
      'verbtree: "navigate" is not <verb>@<version>; write e.g. collect_block@2.0.0\n',
    );
    expect((await promote('navigat@9.0.0')).err).toBe(
      'verbtree: promote navigat@9.0.0: unknown verb "navigat"; did you mean "navigate"?\n',
    );
    expect(await promote('navigate@1.0.0')).toMatchObject({
      code: 2,
      err: 'verbtree: promote navigate@1.0.0: navigate@1.0.0 is not a canary, so there is nothing to promote (its canaries: navigate@9.0.0)\n',
    });
  });

  it('refuses a config whose canaries section is wrong, naming the field', async () => {
    const { config } = project({ rule: { minRuns: 0 }, promote: ['navigate'] });
    const { code, err } = await cli('--config', config, 'registry', '--sla');
    expect(code).toBe(2);
    expect(err).toContain('config.canaries.rule.minRuns: is too small: must be >= 1 (and 1 more)');
  });

  it('makes a canary act when the project config promotes it, and refuses one the registry does not hold', async () => {
    const promoted = project({ promote: ['navigate@9.0.0'] });
    const listed = JSON.parse((await cli('--config', promoted.config, 'registry', '--json')).out) as {
      name: string;
      version: string;
      canary?: string;
    }[];
    expect(listed.find((entry) => entry.name === 'navigate' && entry.version === '9.0.0')?.canary).toBe('promoted');
    const wrong = project({ promote: ['navigate@9.1.0'] });
    expect((await cli('--config', wrong.config, 'registry', '--json')).err).toMatch(
      /config\.canaries\.promote\[0\]: .*navigate has no version "9\.1\.0"/,
    );
  });

  it('says the journal is missing when --sla has none to read', async () => {
    const { config, journal } = project();
    const { code, err } = await cli('--config', config, 'registry', '--sla', '--journal', `${journal}.none`);
    expect(code).toBe(2);
    expect(err).toContain(`${journal}.none`);
  });
});
