import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp } from './helpers.js';

describe('a plan the executor refuses, journaled', () => {
  it('is kept as a capped summary (ids, step count, first issues), never in full', async () => {
    const { journal } = openTemp();
    const clock = new ManualClock();
    const assembly = await assembleJournaled({
      registry: createDefaultRegistry(),
      world: SimWorld.create({ clock }),
      clock,
      journal,
      kind: 'run',
    });
    try {
      // 20,000 steps, each with an unknown verb and a bulky argument: about 10 MB of plan.
      const steps = Array.from({ length: 20_000 }, (_, i) => ({
        stepId: `s${i}`,
        type: 'teleport',
        args: { note: 'z'.repeat(500) },
      }));
      const result = await (await assembly.run({ planId: 'huge', intentId: 'i', steps })).result;
      expect(result.ok).toBe(false);
      expect(result.code).toMatch(/unknown_verb|schema_violation|plan_too_large/);
      await assembly.recorder.flush();
      const provenance = (await journal.planProvenance('huge'))!;
      const plan = { status: provenance.plan.status, body: provenance.plan.body! };
      expect(plan.status).toBe('rejected');
      expect(plan.body.length).toBeLessThan(20_000);
      const summary = JSON.parse(plan.body) as { issues: unknown[] };
      expect(summary).toMatchObject({ planId: 'huge', rejected: true, steps: 20_000 });
      expect(summary.issues.length).toBeGreaterThan(0);
      expect(summary.issues.length).toBeLessThanOrEqual(20);
      expect(provenance.stepsTotal).toBe(0);
      const [run] = provenance.runs;
      expect(run!.detail!.length).toBeLessThan(20_000);
      expect(result.detail!.length).toBeLessThan(20_000);
    } finally {
      await assembly.close();
    }
  });
});
