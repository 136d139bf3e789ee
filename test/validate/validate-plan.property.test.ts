import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validatePlan } from '../../src/index.js';
import { planArbitrary } from '../../src/testing/index.js';
import { fixtureRegistry } from '../helpers/registry.js';

const registry = fixtureRegistry();

describe('validatePlan properties', () => {
  it("accepts every plan generated from the registry's own schemas", () => {
    fc.assert(
      fc.property(planArbitrary(registry), (plan) => {
        const report = validatePlan(plan, registry);
        expect(report.ok ? [] : report.issues).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  const mutations: {
    name: string;
    code: string;
    where: (i: number) => string;
    apply: (step: Record<string, unknown>) => void;
  }[] = [
    {
      name: 'unknown verb',
      code: 'unknown_verb',
      where: (i) => `steps[${i}].type`,
      apply: (s) => void (s.type = `${String(s.type)}_xyz`),
    },
    {
      name: 'wrong type',
      code: 'schema_violation',
      where: (i) => `steps[${i}].stepId`,
      apply: (s) => void (s.stepId = 42),
    },
    {
      name: 'missing field',
      code: 'schema_violation',
      where: (i) => `steps[${i}].type`,
      apply: (s) => void delete s.type,
    },
    {
      name: 'out-of-range version',
      code: 'version_unsatisfied',
      where: (i) => `steps[${i}].version`,
      apply: (s) => void (s.version = '>=99'),
    },
  ];

  for (const mutation of mutations) {
    it(`reports a ${mutation.name} with code ${mutation.code} at the mutated step`, () => {
      fc.assert(
        fc.property(planArbitrary(registry), fc.nat(), (plan, pick) => {
          const index = pick % plan.steps.length;
          mutation.apply(plan.steps[index] as Record<string, unknown>);
          const report = validatePlan(plan, registry);
          expect(report.ok).toBe(false);
          if (report.ok) return;
          expect(report.issues.map((i) => `${i.code}@${i.where}`)).toContain(
            `${mutation.code}@${mutation.where(index)}`,
          );
        }),
        { numRuns: 150 },
      );
    });
  }

  it('never throws on arbitrary JSON or arbitrary values', () => {
    fc.assert(
      fc.property(fc.json(), (text) => void validatePlan(JSON.parse(text), registry)),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withNullPrototype: true }),
        (value) => void validatePlan(value, registry),
      ),
      { numRuns: 500 },
    );
  });
});
