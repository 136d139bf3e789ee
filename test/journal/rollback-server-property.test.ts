import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openTemp, stepsOf } from './helpers.js';
import { crashPlan, DIG, PLACE, runWithCrash, SAVE_EVERY_MS, type CrashRun } from './rollback-server-fixture.js';

/*
 * Issue 31 §5: the kill at any point of a plan, on the real embedded world. The server saves every SAVE_EVERY_MS and
 * is crashed as a SIGKILL would kill it (nothing written past its last periodic save) at a drawn moment: after some
 * number of the plan's successes, plus a delay within a save interval. It is started again from its folder; the bot
 * rejoins and its successes are checked again. Then the journal and the world agree: each step journaled succeeded
 * holds, each retracted or never tried is absent, and nothing holds that the journal does not explain. A step that
 * was in flight at the crash and then failed may hold or not: its action reached the server before the kill, and
 * the journal holds that attempt (a dig whose block broke and was saved just before the kill, whose retry then finds
 * air, fails precondition_missing: no false ok, though the world holds its effect).
 */

/** Whether each step's effect is in the world, as the server holds it (its truth, not the bot's view). */
async function effectsInWorld({ server }: CrashRun): Promise<Record<string, boolean>> {
  const inventory = server.player('ann')?.inventory ?? {};
  const dug = (await server.blockAt(DIG)) === 'air';
  const placed = (await server.blockAt(PLACE)) === 'cobblestone';
  const have = (item: string) => inventory[item] ?? 0;
  // Each effect is whole or absent: a half (planks without the log spent, a block without its item used) is neither.
  const planks = have('oak_planks') === 4 && have('oak_log') === 0;
  const noPlanks = have('oak_planks') === 0 && have('oak_log') === 1;
  const placedWhole = placed && have('cobblestone') === 0;
  const notPlaced = !placed && have('cobblestone') === 1;
  expect({ planks: planks || noPlanks, place: placedWhole || notPlaced }).toEqual({ planks: true, place: true });
  return { planks, dig: dug, place: placedWhole };
}

describe('a crash at any moment of a plan on the embedded world, then the rejoin', () => {
  it('leaves the journal succeeded exactly where the world that came back holds the effect', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: crashPlan.steps.length }),
        fc.integer({ min: 0, max: SAVE_EVERY_MS }),
        async (afterSuccesses, delayMs) => {
          const { journal } = openTemp();
          const run = await runWithCrash(journal, { afterSuccesses, delayMs });
          try {
            const world = await effectsInWorld(run);
            for (const step of await stepsOf(journal, crashPlan.planId)) {
              const holds = world[step.step_id];
              if (step.status === 'succeeded') expect({ [step.step_id]: holds }).toEqual({ [step.step_id]: true });
              // A step in flight at the crash that then failed may have acted before it (its actions are journaled).
              else if (step.status === 'retracted' || step.attempts === 0)
                expect({ [step.step_id]: holds }).toEqual({ [step.step_id]: false });
            }
          } finally {
            await run.close();
            await journal.close();
          }
        },
      ),
      { numRuns: 4, seed: 31, endOnFailure: true },
    );
  }, 60_000);
});
