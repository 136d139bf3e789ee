import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canaryStatus, type VersionRun } from '../../src/registry/canary-sla.js';
import { navigateRun } from '../helpers/canary-journal.js';

const ENTRY = { verb: 'navigate', version: '9.0.0', stable: '1.0.0', promoted: false };
const RULE = { minRuns: 3, p95MarginPct: 20 };

/** `count` real runs of the stable version and as many shadow runs of the canary on `worldKind`. */
function runsOn(worldKind: string, count: number, canary: Partial<VersionRun> = {}): VersionRun[] {
  return Array.from({ length: count }, () => [
    { ...navigateRun('1.0.0', false, true), worldKind },
    { ...navigateRun('9.0.0', true, true), worldKind, ...canary },
  ]).flat();
}

describe("a canary's SLA and standing, by world kind", () => {
  it('keeps each world kind apart: sure on sim, failing on the embedded server, it is not ready', () => {
    const status = canaryStatus(ENTRY, [...runsOn('sim', 3), ...runsOn('embedded', 3, { ok: false })], RULE);
    expect(status).toMatchObject({ state: 'shadow', reason: "on embedded: success 0% is below the stable's 100%" });
    expect(
      status.sla.map(({ worldKind, stable, canary }) => [worldKind, stable?.successRate, canary.successRate]),
    ).toEqual([
      ['sim', 1, 1],
      ['embedded', 1, 0],
    ]);
  });

  it('judges a canary slower than the stable version only where it is slower', () => {
    const status = canaryStatus(ENTRY, [...runsOn('sim', 3), ...runsOn('embedded', 3, { durationMs: 1500 })], RULE);
    expect(status).toMatchObject({
      state: 'shadow',
      reason: "on embedded: p95 duration 1500 ms is above the stable's 1000 ms + 20%",
    });
  });

  it('compares a kind only with the stable version on that kind: no real runs there, no promotion', () => {
    const onlyShadow = runsOn('embedded', 3).filter((run) => run.shadow);
    expect(canaryStatus(ENTRY, [...runsOn('sim', 3), ...onlyShadow], RULE)).toMatchObject({
      state: 'shadow',
      reason: 'on embedded: the stable navigate@1.0.0 has no real runs to compare with',
    });
  });

  it('property: never ready while any kind with its N shadow runs fails more often than the stable there', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ kind: fc.constantFrom('sim', 'embedded', 'survival'), ok: fc.boolean() }), {
          maxLength: 30,
        }),
        (drawn) => {
          const runs = drawn.flatMap(({ kind, ok }) => runsOn(kind, 1, { ok }));
          const status = canaryStatus(ENTRY, runs, RULE);
          const judged = new Map<string, { runs: number; failed: number }>();
          for (const { kind, ok } of drawn) {
            const tally = judged.get(kind) ?? { runs: 0, failed: 0 };
            judged.set(kind, { runs: tally.runs + 1, failed: tally.failed + Number(!ok) });
          }
          const counted = [...judged.values()].filter((tally) => tally.runs >= RULE.minRuns);
          const shouldBeReady = counted.length > 0 && counted.every((tally) => tally.failed === 0);
          expect(status.state).toBe(shouldBeReady ? 'ready' : 'shadow');
        },
      ),
    );
  });
});
