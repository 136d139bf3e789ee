import { describe, expect, it } from 'vitest';
import { validatePlan } from '../../src/index.js';
import { fixtureRegistry, goodPlan } from '../helpers/registry.js';
import { match } from '../helpers/matchers.js';

const registry = fixtureRegistry();

function issuesOf(plan: unknown) {
  const report = validatePlan(plan, registry);
  if (report.ok) throw new Error('expected the plan to be invalid');
  return report.issues;
}

describe('validatePlan', () => {
  it('accepts a good plan and resolves each step to a capability version', () => {
    const report = validatePlan(goodPlan(), registry);
    expect(report.ok).toBe(true);
    if (!report.ok) return;
    expect(report.steps.map((s) => `${s.spec.name}@${s.spec.version}`)).toEqual(['navigate@1.0.0', 'dig_block@1.2.0']);
    expect(report.steps[1]!.args).toMatchObject({ count: 1 });
  });

  it('reports an unknown verb with the closest registered one', () => {
    const plan = goodPlan();
    plan.steps[1]!.type = 'dig_blok';
    const [issue] = issuesOf(plan);
    expect(issue).toMatchObject({
      code: 'unknown_verb',
      where: 'steps[1].type',
      stepIndex: 1,
      stepId: 'dig',
      suggestion: 'dig_block',
    });
    expect(issue!.message).toContain('did you mean "dig_block"?');
  });

  it('lists the registered verbs when nothing is close', () => {
    const plan = goodPlan();
    plan.steps[0]!.type = 'teleport_home';
    expect(issuesOf(plan)[0]!.message).toContain('registered verbs: dig_block, navigate');
  });

  it('reports a version range no registered version satisfies', () => {
    const plan = { ...goodPlan(), steps: [{ ...goodPlan().steps[1]!, version: '^3' }] };
    expect(issuesOf(plan)[0]).toMatchObject({ code: 'version_unsatisfied', where: 'steps[0].version' });
    expect(issuesOf(plan)[0]!.message).toContain('available: 2.0.0, 1.2.0, 1.0.0');
  });

  it('resolves the newest version matching the range, and warns on a deprecated one', () => {
    const plan = {
      ...goodPlan(),
      steps: [
        { ...goodPlan().steps[1]!, version: '^1.0' },
        { ...goodPlan().steps[1]!, stepId: 'd2', version: '2' },
      ],
    };
    const report = validatePlan(plan, registry);
    expect(report.ok).toBe(true);
    if (!report.ok) return;
    expect(report.steps.map((s) => s.spec.version)).toEqual(['1.2.0', '2.0.0']);
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings[0]!.message).toBe('dig_block@2.0.0 is deprecated: use 1.x');
  });

  it('reports an argument of the wrong type at its JSON path, naming the fix', () => {
    const plan = goodPlan();
    (plan.steps[1]!.args as Record<string, unknown>).count = 'three';
    const [issue] = issuesOf(plan);
    expect(issue).toMatchObject({
      code: 'schema_violation',
      where: 'steps[1].args.count',
      path: ['steps', 1, 'args', 'count'],
    });
    expect(issue!.message).toBe('expected number, got string "three"; give a number, e.g. 3');
  });

  it('reports a missing argument as required', () => {
    const plan = goodPlan();
    plan.steps[1]!.args = { block: 'oak_log' } as never;
    const [issue] = issuesOf(plan);
    expect(issue).toMatchObject({ where: 'steps[1].args.position' });
    expect(issue!.message).toMatch(/^is required: add it as a object/);
  });

  it('reports an unknown argument with a did-you-mean', () => {
    const plan = goodPlan();
    (plan.steps[1]!.args as Record<string, unknown>).postion = { x: 1, y: 1, z: 1 };
    const [issue] = issuesOf(plan);
    expect(issue).toMatchObject({ where: 'steps[1].args', suggestion: 'position' });
    expect(issue!.message).toContain('unknown field "postion"');
  });

  it('reports every problem of every step, not just the first', () => {
    const plan = goodPlan();
    plan.steps[0]!.type = 'navigat';
    (plan.steps[1]!.args as Record<string, unknown>).count = 0;
    (plan.steps[1]! as Record<string, unknown>).safetyLevel = 'reckless';
    const issues = issuesOf(plan);
    expect(issues.map((i) => `${i.code}@${i.where}`)).toEqual([
      'unknown_verb@steps[0].type',
      'schema_violation@steps[1].safetyLevel',
    ]);
    const argsOnly = goodPlan();
    (argsOnly.steps[1]!.args as Record<string, unknown>).count = 0;
    expect(issuesOf(argsOnly)[0]!.message).toBe('is too small: must be >= 1');
  });

  it('reports duplicate step ids', () => {
    const plan = goodPlan();
    plan.steps[1]!.stepId = 'go';
    expect(issuesOf(plan)[0]).toMatchObject({
      where: 'steps[1].stepId',
      message: match.stringContaining('also used by steps[0]'),
    });
  });

  it('reports a malformed envelope with the allowed values', () => {
    expect(issuesOf({ planId: 'p', steps: [] })[0]).toMatchObject({
      where: 'intentId',
      message: match.stringContaining('is required'),
    });
    expect(issuesOf({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'Dig Block' }] })[0]).toMatchObject({
      where: 'steps[0].type',
      message: match.stringContaining('snake_case'),
    });
    expect(issuesOf([])[0]!.where).toBe('(root)');
  });

  it('rejects a version that is not a semver range', () => {
    const plan = { ...goodPlan(), steps: [{ ...goodPlan().steps[1]!, version: 'latest-ish' }] };
    expect(issuesOf(plan)[0]).toMatchObject({
      where: 'steps[0].version',
      message: match.stringContaining('semver range'),
    });
  });
});
