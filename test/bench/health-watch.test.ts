import { describe, expect, it } from 'vitest';
import { HEALTH_SAMPLE_MS, watchHealth } from '../../bench/health-watch.js';
import { ManualClock } from '../../src/clock/index.js';

/** The deaths a watch counts over health readings taken one sample apart. */
async function deathsOver(readings: number[]): Promise<number> {
  const clock = new ManualClock();
  let i = 0;
  const watch = watchHealth(clock, () => readings[Math.min(i++, readings.length - 1)]);
  await clock.advance(HEALTH_SAMPLE_MS * readings.length);
  watch.stop();
  return watch.deaths;
}

describe("the benches' health watch", () => {
  it('counts a death once whether its 0 was sampled before the respawn or fell between two samples', async () => {
    // SimWorld is dead for a tick, one sample: the 0 and then the respawn's 20 are one death, not two.
    expect(await deathsOver([20, 6, 0, 20, 20])).toBe(1);
    expect(await deathsOver([20, 6, 20, 20])).toBe(1);
    expect(await deathsOver([20, 6, 0, 0, 20, 3, 0, 20])).toBe(2);
    // Regeneration heals a point at a time: no death.
    expect(await deathsOver([20, 6, 7, 8])).toBe(0);
  });
});
