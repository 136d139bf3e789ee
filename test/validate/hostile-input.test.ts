import { describe, expect, it } from 'vitest';
import { INPUT_LIMITS, validatePlan } from '../../src/index.js';
import { fixtureRegistry, goodPlan } from '../helpers/registry.js';
import { match } from '../helpers/matchers.js';

const registry = fixtureRegistry();

function firstIssue(plan: unknown) {
  const report = validatePlan(plan, registry);
  expect(report.ok).toBe(false);
  return report.ok ? undefined : report.issues[0];
}

describe('hostile input', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('rejects the key %s wherever it appears', (key) => {
    const plan: unknown = JSON.parse(
      `{"planId":"p","intentId":"i","steps":[{"stepId":"s","type":"navigate","args":{"${key}":{"polluted":true}}}]}`,
    );
    expect(firstIssue(plan)).toMatchObject({ code: 'schema_violation', where: `steps[0].args.${key}` });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([NaN, Infinity, -Infinity])('rejects the non-finite number %s', (value) => {
    const plan = goodPlan();
    (plan.steps[1]!.args as Record<string, unknown>).count = value;
    expect(firstIssue(plan)!.message).toContain('not a finite number');
  });

  it('rejects oversized strings and arrays', () => {
    const longId = { ...goodPlan(), planId: 'x'.repeat(INPUT_LIMITS.maxStringLength + 1) };
    expect(firstIssue(longId)).toMatchObject({
      where: 'planId',
      message: match.stringContaining('longer than the limit'),
    });
    const manySteps = { ...goodPlan(), steps: new Array(INPUT_LIMITS.maxArrayLength + 1).fill(0) };
    expect(firstIssue(manySteps)).toMatchObject({
      where: 'steps',
      message: match.stringContaining('longer than the limit'),
    });
  });

  it('rejects nesting past the depth limit without overflowing the stack', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const plan = goodPlan();
    (plan.steps[0]!.args as Record<string, unknown>).target = deep;
    expect(firstIssue(plan)!.message).toContain(`deeper than ${INPUT_LIMITS.maxDepth} levels`);
  });

  it('rejects cycles, functions and class instances', () => {
    const cyclic: Record<string, unknown> = { ...goodPlan() };
    cyclic.self = cyclic;
    expect(firstIssue(cyclic)!.message).toContain('cycle');
    expect(firstIssue({ ...goodPlan(), planId: () => 1 })!.message).toContain('not a JSON value');
    expect(firstIssue({ ...goodPlan(), planId: new Date() })!.message).toContain('not a plain JSON object');
  });

  it('accepts one object shared by two steps: shared is not a cycle', () => {
    const target = { kind: 'near', x: 4, y: 0, z: 4 };
    const plan = { ...goodPlan(), steps: [0, 1].map((i) => ({ stepId: `s${i}`, type: 'navigate', args: { target } })) };
    expect(validatePlan(plan, registry).ok).toBe(true);
  });

  it('never throws, even on getters that throw', () => {
    const trap = { ...goodPlan() };
    Object.defineProperty(trap, 'planId', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(firstIssue(trap)!.message).toContain('could not be checked: boom');
  });
});
