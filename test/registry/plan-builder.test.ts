import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_CAPABILITIES, createDefaultRegistry } from '../../capabilities/index.js';
import { defineCapability, planBuilder, validatePlan } from '../../src/index.js';

const wave = defineCapability({
  name: 'wave',
  version: '1.0.0',
  description: 'Wave.',
  inputSchema: z.strictObject({ times: z.int().min(1) }),
  safetyLevel: 'safe',
  expectedDurationMs: 1000,
  retryableCodes: [],
  preconds: [],
  effects: [],
  guard: () => ({ ok: true }),
  expect: () => [{ kind: 'food', atLeast: 0 }],
});

describe('planBuilder: plans typed from the capabilities’ schemas', () => {
  it('builds steps with ids, options and arguments as given; the plan validates against the registry', () => {
    const plan = planBuilder(BUILTIN_CAPABILITIES, { planId: 'p', intentId: 'i' })
      .step('navigate', { target: { kind: 'near', x: 3, y: 5, z: 0 } })
      .step('craft_item', { item: 'oak_planks', count: 4 }, { stepId: 'planks', version: '^1' })
      .step('store_items', { item: 'oak_planks', count: 4 })
      .build();
    expect(plan.steps.map((s) => [s.stepId, s.type, s.version])).toEqual([
      ['navigate-1', 'navigate', undefined],
      ['planks', 'craft_item', '^1'],
      ['store_items-3', 'store_items', undefined],
    ]);
    expect(validatePlan(plan, createDefaultRegistry()).ok).toBe(true);
  });

  it('refuses at compile time a verb no capability has, a missing argument, or one of the wrong type', () => {
    const builder = planBuilder([...BUILTIN_CAPABILITIES, wave] as const, { planId: 'p', intentId: 'i' });
    builder.step('wave', { times: 2 });
    // @ts-expect-error: no capability is called "wav"
    builder.step('wav', { times: 2 });
    // @ts-expect-error: dig_block needs a position
    builder.step('dig_block', {});
    // @ts-expect-error: count is a number
    builder.step('craft_item', { item: 'stick', count: 'four' });
    // The built plan still meets the run-time check: a bad one is reported, not run.
    const registry = createDefaultRegistry().register(wave);
    const checked = validatePlan(builder.build(), registry);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? [] : checked.issues.map((issue) => issue.stepId)).toEqual(
      expect.arrayContaining(['wav-2', 'dig_block-3', 'craft_item-4']),
    );
  });
});
