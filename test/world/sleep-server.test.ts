import { describe, expect, it } from 'vitest';
import { WorldError } from '../../src/contracts/world.js';
import { embeddedSuite } from '../helpers/embedded.js';

// Night (time 14000, no daylight cycle); two beds: one by spawn (a red bed, both halves), one by a zombie.
const suite = embeddedSuite({
  timeOfDay: 14_000,
  blocks: [
    { x: 2, y: 5, z: 0, block: 'red_bed' },
    { x: 2, y: 5, z: -1, block: 'red_bed' },
  ],
});

describe('sleep on the embedded server (the beds plugin)', () => {
  it('at night the bot lies down, the night is skipped to sunrise, and it gets up; by day it is refused with the reason', async () => {
    const bot = await suite.world.connectBot('sleeper');
    expect((await bot.observe({ time: true })).timeOfDay).toBe(14_000);
    const started = Date.now();
    await bot.sleep({ x: 2, y: 5, z: 0 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
    const morning = (await bot.observe({ time: true })).timeOfDay!;
    expect(morning).toBeLessThan(1_000);
    const refused = await bot.sleep({ x: 2, y: 5, z: 0 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(WorldError);
    expect((refused as WorldError).code).toBe('guard_failed');
    expect((refused as WorldError).message).toContain('one sleeps only at night');
  }, 60_000);
});
