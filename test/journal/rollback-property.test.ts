import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { recheckAfterRestart } from '../../src/journal/rollback.js';
import { openTemp } from './helpers.js';
import { rollbackPlan, runAsAnn, worldAfterSave } from './rollback-fixture.js';

/*
 * The kill at any point of a plan, on the embedded world's save model: the world that comes back holds exactly the
 * steps done before its last save. Whether the server says when it saved (each success after it checked) or not
 * (the window, newest first), after the re-check the journal's successes are the world's truth: the saved steps stay
 * succeeded with their keys completed, every other step is retracted with its key released.
 */

const steps = rollbackPlan.steps;

describe('re-check after a restart: the journal agrees with the world whatever the moment of the kill', () => {
  it('for every save point and either rule, the successes left are exactly the steps the saved world holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: steps.length }), fc.boolean(), async (saved, serverSaysWhen) => {
        const clock = new ManualClock();
        const { journal } = openTemp(() => clock.now());
        const fence = await runAsAnn(journal, clock);
        const provenance = (await journal.planProvenance('p'))!;
        // The save came right after the last saved step succeeded (before the plan, when none was).
        const succeededAt = (stepId: string) =>
          Number(
            provenance.steps
              .find((s) => s.step.step_id === stepId)!
              .transitions.find((t) => t.to_status === 'succeeded')!.at,
          );
        const savedUpTo = saved === 0 ? -1 : succeededAt(steps[saved - 1]!.stepId);

        await recheckAfterRestart(journal, await worldAfterSave(saved), {
          bot: 'ann',
          restart: 'the server is another process',
          savedUpTo: serverSaysWhen ? savedUpTo : null,
          windowStart: -1,
          fence,
        });

        const after = (await journal.planProvenance('p'))!.steps.map((s) => [s.step.step_id, s.step.status]);
        expect(after).toEqual(steps.map((s, i) => [s.stepId, i < saved ? 'succeeded' : 'retracted']));
        expect((await journal.completedKeys()).sort()).toEqual(
          steps
            .slice(0, saved)
            .map((s) => s.idempotencyKey)
            .sort(),
        );
        await journal.close();
      }),
      { numRuns: 8 },
    );
  });
});
