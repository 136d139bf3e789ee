import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { recheckAfterRestart } from '../../src/journal/rollback.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp } from './helpers.js';
import { runAsAnn } from './rollback-fixture.js';

/*
 * The re-check's rule when the server does not say when it saved (a vanilla server): the bot's successes are checked
 * newest first; one found gone is retracted; one that holds a lasting fact of the world (a dug block) ends the check,
 * itself and every older success held (a rollback loses the time after some save: a world that holds a success holds
 * what came before it); one that holds only where the bot stands (a walk) proves nothing of the save and the check
 * goes on. Any plan of digs and walks, any world that comes back (any of its digs there or not, the bot on any cell):
 * the journal ends as that rule says, so checking oldest first, or not stopping, or stopping at a walk, fails here.
 */

/** The cells dug, one per dig in the plan's order, each within reach of every cell walked to. */
const DIG_CELLS = [
  { x: 1, y: 0, z: 0 },
  { x: -1, y: 0, z: 1 },
  { x: 1, y: 0, z: 2 },
  { x: -1, y: 0, z: 3 },
];
const WALK_ROWS = 4;

type Step = { kind: 'dig' } | { kind: 'walk'; z: number };

const stepsArb = fc
  .array(
    fc.oneof(
      fc.constant<Step>({ kind: 'dig' }),
      fc.nat(WALK_ROWS - 1).map((z): Step => ({ kind: 'walk', z })),
    ),
    {
      minLength: 1,
      maxLength: 6,
    },
  )
  .filter((steps) => steps.filter((s) => s.kind === 'dig').length <= DIG_CELLS.length);

function planOf(steps: Step[]) {
  let digs = 0;
  return {
    planId: 'p',
    intentId: 'i',
    steps: steps.map((step, i) =>
      step.kind === 'dig'
        ? { stepId: `s${i}`, type: 'dig_block', args: { position: DIG_CELLS[digs++]!, block: 'dirt' } }
        : { stepId: `s${i}`, type: 'navigate', args: { target: { kind: 'block', x: 0, y: 0, z: step.z } } },
    ),
  };
}

const dirtWorld = (clock: ManualClock, spawnZ: number) => {
  const world = SimWorld.create({ clock, spawn: { x: 0, y: 0, z: spawnZ } });
  for (const cell of DIG_CELLS) world.setBlock(cell, 'dirt');
  return world;
};

type Verdict = 'succeeded' | 'retracted';

/** The rule, step by step: what each success ends as after the re-check. */
function byTheRule(steps: Step[], dugAfter: boolean[], standsAt: number): Verdict[] {
  const verdicts: Verdict[] = steps.map(() => 'succeeded');
  let digs = steps.filter((s) => s.kind === 'dig').length;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    const holds = step.kind === 'dig' ? dugAfter[--digs]! : step.z === standsAt;
    if (!holds) verdicts[i] = 'retracted';
    else if (step.kind === 'dig') break;
  }
  return verdicts;
}

describe('re-check without the save time: newest first, ended by a lasting fact that holds', () => {
  it('for any plan of digs and walks and any world that comes back, the journal ends as the rule says', async () => {
    await fc.assert(
      fc.asyncProperty(
        stepsArb,
        fc.array(fc.boolean(), { minLength: DIG_CELLS.length, maxLength: DIG_CELLS.length }),
        fc.nat(WALK_ROWS - 1),
        async (steps, dugAfter, standsAt) => {
          const clock = new ManualClock();
          const { journal } = openTemp(() => clock.now());
          const fence = await runAsAnn(journal, clock, planOf(steps), dirtWorld(clock, 0));

          const back = dirtWorld(new ManualClock(), standsAt);
          DIG_CELLS.forEach((cell, i) => dugAfter[i] && back.setBlock(cell, 'air'));
          await recheckAfterRestart(journal, back, {
            bot: 'ann',
            restart: "the world's age went back",
            savedUpTo: null,
            windowStart: -1,
            fence,
          });

          const after = (await journal.planProvenance('p'))!.steps.map((s) => s.step.status);
          expect(after).toEqual(byTheRule(steps, dugAfter, standsAt));
          await journal.close();
        },
      ),
      { numRuns: 20 },
    );
  });
});
