import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExecutorEvent, PlanResult } from '../../src/executor/events.js';
import { isSafetySignal } from '../../src/executor/safety/index.js';
import { harness, plan } from '../helpers/executor.js';

/** One safety takeover of the walk: the nested steps it started, and the defences the walk was told of. */
interface Takeover {
  nested: string[];
  defences: string[];
}

/** The walk's takeovers, read from the events: each from its `step.preempted` to the walk's next resume or end. */
function takeoversOf(events: readonly ExecutorEvent[], stepId: string): Takeover[] {
  const takeovers: Takeover[] = [];
  let open: Takeover | null = null;
  for (const e of events) {
    if (!('stepId' in e) || e.stepId === undefined) continue;
    if (e.stepId === stepId && e.type === 'step.preempted' && isSafetySignal(e.by))
      takeovers.push((open = { nested: [], defences: [] }));
    else if (open && e.type === 'step.started' && e.stepId.startsWith(`${stepId}/safety-`)) open.nested.push(e.verb);
    else if (open && e.stepId === stepId && e.type === 'step.repair' && e.strategy.startsWith('defence: '))
      open.defences.push(e.strategy);
    else if (e.stepId === stepId && (e.type === 'step.resumed' || e.type === 'step.ended')) open = null;
  }
  return takeovers;
}

const encounter = fc.record({
  mobs: fc.array(
    fc.record({
      name: fc.constantFrom('zombie', 'zombie', 'skeleton', 'spider'),
      distance: fc.integer({ min: 3, max: 9 }),
      heading: fc.integer({ min: 0, max: 15 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  weapon: fc.constantFrom(null, 'wooden_sword', 'stone_sword'),
  health: fc.integer({ min: 8, max: 20 }),
  dirt: fc.constantFrom(0, 16),
  night: fc.boolean(),
});

// Issue 30 §2 over generated encounters: whatever safety chose (a fight, a flight, a shelter, a meal, nothing), a
// takeover that ran a response is exactly one repair of the step it took over, a defence naming that response, and
// the result's totals are the repairs and defences the run told, each counted once.
describe('defences counted as repairs, over generated encounters on SimWorld', () => {
  it('each takeover that ran a response is one defence of the walk, and the totals are the repairs told', async () => {
    await fc.assert(
      fc.asyncProperty(encounter, async ({ mobs, weapon, health, dirt, night }) => {
        const inventory: Record<string, number> = { wooden_shovel: 1, bread: 2, ...(dirt ? { dirt } : {}) };
        if (weapon) inventory[weapon] = 1;
        const h = await harness({
          ground: { radius: 40 },
          health,
          inventory,
          ...(night ? { timeOfDay: 18_000 } : {}),
        });
        for (const { name, distance, heading } of mobs) {
          const angle = (heading * Math.PI) / 8;
          const position = {
            x: Math.round(distance * Math.cos(angle)) + 0.5,
            y: 0,
            z: Math.round(distance * Math.sin(angle)) + 0.5,
          };
          h.world.spawnEntity({ name, kind: 'hostile', position, ai: true });
        }
        const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 0, y: 0, z: -20 } } };
        const result: PlanResult = await h.run(plan(walk), 900_000);
        const repairs = h.events.filter((e) => e.type === 'step.repair');
        const defences = repairs.filter((e) => e.strategy.startsWith('defence: '));
        const takeovers = takeoversOf(h.events, 'walk');
        const summary = JSON.stringify({ result: [result.ok, result.code, result.detail], takeovers });
        expect(result.repairs, summary).toBe(repairs.length);
        expect(result.defences, summary).toBe(defences.length);
        expect(result.steps.find((s) => s.step.stepId === 'walk')?.defences, summary).toBe(defences.length);
        for (const { nested, defences: told } of takeovers) {
          // leave_shelter is how a defence ends, never one by itself.
          const responses = nested.filter((verb) => verb !== 'leave_shelter');
          expect(told.length, summary).toBe(responses.length > 0 ? 1 : 0);
          // "defence: attack_entity ×2, then flee from …": the first response named is one that ran.
          const first = /^defence: (\w+)/.exec(told[0] ?? '')?.[1];
          if (first) expect(responses, summary).toContain(first);
        }
      }),
      { numRuns: 12 },
    );
  });
});
