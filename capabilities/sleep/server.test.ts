import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

// Midnight, no daylight cycle; a red bed (both halves) a few blocks from spawn.
const suite = embeddedSuite({
  timeOfDay: 18_000,
  blocks: [
    { x: 4, y: 5, z: 3, block: 'red_bed' },
    { x: 4, y: 5, z: 2, block: 'red_bed' },
  ],
});

describe('sleep on the embedded server', () => {
  it('walks to the bed, sleeps, and the server holds the morning', async () => {
    const { result } = await suite.run('dreamer', [{ stepId: 'night', type: 'sleep', args: {} }]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(suite.server.timeOfDay()).toBeLessThan(1_000);
  }, 60_000);
});
