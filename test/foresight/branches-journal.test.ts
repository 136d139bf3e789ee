import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { provenanceText } from '../../src/cli/commands/show.js';
import { ManualClock } from '../../src/clock/index.js';
import { moat } from '../../src/foresight/hard-cases.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { openJournal } from '../../src/journal/open.js';
import { planProvenance } from '../../src/journal/queries.js';
import { chooseBranch } from '../../src/recovery/index.js';
import { awaitHeldForForks, watchedExplorer } from '../helpers/branching.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('branch exploration in the journal', () => {
  it('`show` names every branch, its score and the choice; the metrics count the branch stage', async () => {
    const journal = await openJournal(join(await tempDir('branches-journal-'), 'journal.db'));
    try {
      const clock = new ManualClock();
      const hard = moat(clock);
      const watch = watchedExplorer();
      const assembly = await assembleJournaled({
        registry: createDefaultRegistry(),
        world: hard.world,
        clock,
        journal,
        kind: 'test',
        explorer: watch.explorer,
        recovery: { branches: { enabled: true } },
      });
      const plan = { planId: 'moat', intentId: 'cross', steps: [{ stepId: 'cross', ...hard.step }] };
      const run = await assembly.run(plan);
      const result = await awaitHeldForForks(clock, watch, run.result);
      expect(result.ok).toBe(true);
      const text = provenanceText((await planProvenance(journal, 'moat'))!);
      const chosen = chooseBranch(watch.results[0]!)!;
      expect(text).toContain('branch exploration of navigate:');
      for (const { candidate } of watch.results[0]!) expect(text).toContain(candidate.label);
      expect(text).toContain(`${chosen.candidate.label}: score ${chosen.score}`);
      expect(text).toContain('← chosen');
      expect(assembly.executor.metrics().recovery).toMatchObject({
        recoveryTriggers: 1,
        recoverySuccesses: 1,
        stageSuccess: { branch: 1 },
      });
      await assembly.close();
    } finally {
      await journal.close();
    }
  });
});
