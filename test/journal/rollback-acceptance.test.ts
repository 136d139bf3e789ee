import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock, systemClock } from '../../src/clock/index.js';
import type { Journal } from '../../src/journal/journal.js';
import { recheckAfterRestart, type RecheckScope } from '../../src/journal/rollback.js';
import type { AnyCapabilitySpec } from '../../src/registry/capability-spec.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { contractBackends } from './backends.js';
import { runAsAnn } from './rollback-fixture.js';

/*
 * The re-check after a restart judges a success as the step's own verification judged it: by its capability's
 * acceptance (the observation it asks for, its expectations, and its acceptance function with the world at dispatch
 * the journal kept), where that capability's version is registered; by the journaled expectations alone, said in the
 * evidence, where it is not. Here craft_item@9.0.0 also asks, in an acceptance function of its own, that the recipe's
 * log was used up: a pack that holds the planks but still the log (planks from elsewhere, the craft lost with the
 * rollback) meets the expectations and not the acceptance.
 */

const usedUpLog: NonNullable<AnyCapabilitySpec['acceptance']> = (pre, post) => {
  const [before, now] = [pre.inventory.oak_log ?? 0, post.inventory.oak_log ?? 0];
  return now < before ? { ok: true } : { ok: false, unmet: [`oak_log not used up: ${before} at dispatch, ${now} now`] };
};

function withAcceptance() {
  const registry = createDefaultRegistry();
  const craft = registry.resolve('craft_item');
  if (!craft.ok) throw new Error(craft.message);
  return registry.register({ ...craft.spec, version: '9.0.0', acceptance: usedUpLog });
}

const planks = {
  planId: 'p',
  intentId: 'i',
  steps: [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }],
};

const scope = (registry?: RecheckScope['registry']): RecheckScope => ({
  bot: 'ann',
  restart: 'the server is another process (a, now b)',
  savedUpTo: 0,
  windowStart: 0,
  ...(registry ? { registry } : {}),
});

const packAfterRestart = (inventory: Record<string, number>) =>
  SimWorld.create({ clock: new ManualClock(), inventory });

async function ranPlanks(journal: Journal) {
  const registry = withAcceptance();
  const world = SimWorld.create({ clock: systemClock, inventory: { oak_log: 1 } });
  await runAsAnn(journal, systemClock, planks, world, registry);
  return registry;
}

const detailOf = async (journal: Journal) =>
  (await journal.planProvenance('p'))!.steps.find((s) => s.step.step_id === 'planks')!.step;

describe.each(contractBackends())(
  "the re-check after a restart runs the capability's own acceptance, on the %s journal",
  (_name, fresh) => {
    it('the expectations hold but the acceptance does not: retracted, the acceptance named in the evidence', async () => {
      const { journal } = await fresh();
      const registry = await ranPlanks(journal);

      const verdicts = await recheckAfterRestart(
        journal,
        packAfterRestart({ oak_planks: 4, oak_log: 1 }),
        scope(registry),
      );

      expect(verdicts.retracted.map((r) => r.stepId)).toEqual(['planks']);
      const step = await detailOf(journal);
      expect(step.status).toBe('retracted');
      expect(step.outcome_detail).toMatch(
        /not in the live world, by craft_item@9\.0\.0's acceptance: oak_log not used up: 1 at dispatch, 1 now/,
      );
    });

    it('the acceptance holds (run with the world at dispatch the journal kept): held, nothing retracted', async () => {
      const { journal } = await fresh();
      const registry = await ranPlanks(journal);

      const verdicts = await recheckAfterRestart(journal, packAfterRestart({ oak_planks: 4 }), scope(registry));

      expect(verdicts).toEqual({ retracted: [], held: [{ planId: 'p', stepId: 'planks' }] });
      expect((await detailOf(journal)).status).toBe('succeeded');
    });

    it('the version that ran it not registered here: judged by the journaled expectations, and the evidence says so', async () => {
      const { journal } = await fresh();
      await ranPlanks(journal);
      // The built-ins only: craft_item@9.0.0 is not among them.
      const builtins = createDefaultRegistry();

      const held = await recheckAfterRestart(journal, packAfterRestart({ oak_planks: 4, oak_log: 1 }), scope(builtins));
      expect(held.retracted).toEqual([]);
      const gone = await recheckAfterRestart(journal, packAfterRestart({ oak_log: 1 }), scope(builtins));
      expect(gone.retracted.map((r) => r.stepId)).toEqual(['planks']);
      expect((await detailOf(journal)).outcome_detail).toMatch(
        /not in the live world: .*oak_planks.* \(checked by its journaled expectations: craft_item@9\.0\.0 is not registered here\)/,
      );
    });
  },
);
