import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { defineCapability } from '../../src/index.js';
import type { ExecutorEvent, PlanResult } from '../../src/executor/events.js';
import type { Planner } from '../../src/executor/planner.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { harness, plan } from '../helpers/executor.js';
import { match } from '../helpers/matchers.js';

type Misbehaviour = 'throws' | 'returns a promise' | 'returns garbage';
const MISBEHAVIOURS: Misbehaviour[] = ['throws', 'returns a promise', 'returns garbage'];

function misbehave(how: Misbehaviour): never {
  if (how === 'throws') throw new Error('user code blew up');
  return (how === 'returns a promise' ? Promise.resolve({ ok: true }) : { nonsense: 1 }) as never;
}

/** A working capability (a wait that actuates once) with one of its user functions broken. */
function brokenVerb(part: 'guard' | 'expect' | 'acceptance' | 'subgoals', how: Misbehaviour) {
  return defineCapability({
    name: 'broken',
    version: '1.0.0',
    description: 'a verb whose user code misbehaves',
    // Runs the equip tree on its own arguments, so the runner itself succeeds.
    inputSchema: z.strictObject({
      item: z.string().default('stone_axe'),
      destination: z.literal('hand').default('hand'),
    }),
    safetyLevel: 'safe',
    expectedDurationMs: 1_000,
    retryableCodes: [],
    preconds: [],
    effects: [],
    tree: 'equip',
    bindings: {},
    guard:
      part === 'guard'
        ? () => misbehave(how)
        : part === 'subgoals'
          ? () => ({ ok: false, reason: 'needs a thing', missing: { predicate: 'has_item', detail: {} } })
          : () => ({ ok: true }),
    ...(part === 'expect' ? { expect: () => misbehave(how) } : {}),
    acceptance: part === 'acceptance' ? () => misbehave(how) : () => ({ ok: true }),
    ...(part === 'subgoals' ? { subgoals: () => misbehave(how) } : {}),
  });
}

async function runBroken(part: 'guard' | 'expect' | 'acceptance' | 'subgoals', how: Misbehaviour) {
  const registry = createDefaultRegistry().register(brokenVerb(part, how));
  const h = await harness((clock) => SimWorld.create({ clock, inventory: { stone_axe: 1 } }), { registry });
  const events: ExecutorEvent[] = [];
  const run = h.assembly.executor.run(plan({ stepId: 'b', type: 'broken', args: {} }));
  let result: PlanResult | undefined;
  run.result.then(
    (r) => (result = r),
    (error: unknown) => (result = { rejected: error } as never),
  );
  const iterate = (async () => {
    for await (const event of run) events.push(event);
  })();
  await h.clock.runUntil(() => result !== undefined, 60_000);
  await iterate;
  return { result: result!, events, state: h.assembly.executor.state() };
}

describe('user code cannot break the contract', () => {
  it('property: a guard, expect, acceptance or sub-goal function that throws or returns the wrong shape ends the step runner_error, with step.ended and plan.ended', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('guard', 'expect', 'acceptance', 'subgoals' as const),
        fc.constantFrom(...MISBEHAVIOURS),
        async (part, how) => {
          const { result, events, state } = await runBroken(part, how);
          expect(result).not.toHaveProperty('rejected');
          expect(result.ok).toBe(false);
          const ended = events.filter((e) => e.type === 'step.ended');
          expect(ended).toHaveLength(1);
          expect(ended[0]).toMatchObject({
            outcome: { ok: false, code: 'runner_error', detail: match.stringContaining(`broken.${part}`) },
          });
          expect(events.at(-1)?.type).toBe('plan.ended');
          expect(state).toBe('FAILED');
        },
      ),
      { numRuns: 24, seed: 3 },
    );
  });
});

const walk = (stepId: string, x: number) => ({
  stepId,
  type: 'navigate',
  args: { target: { kind: 'block', x, y: 0, z: 0 } },
});
const planner = (name: string, onFailure: Planner['onFailure'], seen: string[] = []): Planner => ({
  name,
  onFailure: (context) => {
    seen.push(name);
    return onFailure(context);
  },
});

describe('planners cannot break the contract either', () => {
  const island = { ground: { radius: 8 } };
  for (const [label, onFailure] of [
    [
      'throws',
      () => {
        throw new Error('planner bug');
      },
    ],
    ['rejects', () => Promise.reject(new Error('planner down'))],
    ['never answers', () => new Promise<never>(() => undefined)],
    ['answers garbage', () => Promise.resolve({ maybe: true } as never)],
  ] as const) {
    it(`a planner that ${label} ends the plan planner_error, explicitly`, async () => {
      const h = await harness(island, {
        planner: planner('p', onFailure),
        policy: { escalation: { plannerTimeoutMs: 5_000 } },
      });
      const result = await h.run(plan(walk('far', 40)), 600_000);
      expect(result).toMatchObject({
        ok: false,
        code: 'planner_error',
        detail: match.stringContaining('planner p.onFailure'),
      });
      expect(h.events.at(-1)?.type).toBe('plan.ended');
    });
  }

  it("a planner's giveUp is final: no stronger planner is asked unless the policy says so", async () => {
    const seen: string[] = [];
    const weak = planner('weak', () => Promise.resolve({ giveUp: 'no idea' }), seen);
    const strong = planner('strong', () => Promise.resolve({ giveUp: 'nor I' }), seen);
    const h = await harness(island, { planner: [weak, strong] });
    const result = await h.run(plan(walk('far', 40)), 600_000);
    expect(result).toMatchObject({
      ok: false,
      code: 'escalation_exhausted',
      detail: match.stringContaining('planner weak gave up: no idea'),
    });
    expect(seen).toEqual(['weak']);
    const again = await harness(island, {
      planner: [planner('weak', () => Promise.resolve({ giveUp: 'no idea' }), ((seen.length = 0), seen)), strong],
      policy: { escalation: { strongerAfterGiveUp: true } },
    });
    await again.run(plan(walk('far', 40)), 600_000);
    expect(seen).toEqual(['weak', 'strong']);
  });

  it('a replacement that reuses a step id already run is refused, not run', async () => {
    const h = await harness(island, {
      planner: planner('p', () => Promise.resolve({ steps: [walk('far', 2)] })),
      policy: { escalation: { budget: 1 } },
    });
    const result = await h.run(plan(walk('far', 40)), 600_000);
    expect(result).toMatchObject({
      ok: false,
      code: 'escalation_exhausted',
      detail: match.stringContaining('already run in this plan (far)'),
    });
    expect(result.steps.filter((s) => s.step.stepId === 'far')).toHaveLength(1);
  });

  it('an intent whose planner throws in plan() is refused with planner_error, and the agent is not left PLANNING', async () => {
    const broken: Planner = {
      name: 'p',
      plan: () => Promise.reject(new Error('cannot plan')),
      onFailure: () => Promise.resolve({ giveUp: 'x' }),
    };
    const h = await harness(island, { planner: broken });
    const result = await h.run(
      { id: 'i1', source: 'user', goal: 'get wood', urgency: 0.1, safety: { allowed: true } },
      60_000,
    );
    expect(result).toMatchObject({ ok: false, code: 'planner_error', detail: match.stringContaining('cannot plan') });
    expect(h.assembly.executor.state()).not.toBe('PLANNING');
  });

  it('an empty plan is refused at validation', async () => {
    const h = await harness(island);
    const result = await h.run({ planId: 'empty', intentId: 'i', steps: [] }, 60_000);
    expect(result).toMatchObject({
      ok: false,
      code: 'schema_violation',
      detail: match.stringContaining('steps: schema_violation: is empty'),
    });
  });
});
