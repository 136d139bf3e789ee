import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNight } from '../../src/index.js';
import { judgeStep, observation } from '../../src/testing/index.js';
import sleepCapability from './index.js';

describe('sleep acceptance', () => {
  it('ok exactly when it is day after the step; a time not observed never passes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 23_999 }), (time) => {
        const args = sleepCapability.inputSchema.parse({});
        const verdict = judgeStep(
          sleepCapability,
          observation({ timeOfDay: 18_000 }),
          observation({ timeOfDay: time }),
          args,
        );
        expect(verdict.ok).toBe(!isNight(time));
      }),
    );
    expect(judgeStep(sleepCapability, observation({ timeOfDay: 18_000 }), observation({}), {}).ok).toBe(false);
  });
});
