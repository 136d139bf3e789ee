import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/manual-clock.js';
import { DEFAULT_STUCK_DETECTION_CONFIG as config } from '../../src/stuck/config.js';
import type { Detection } from '../../src/stuck/detection.js';
import { HeartbeatWatcher } from '../../src/stuck/heartbeat-watcher.js';

describe('HeartbeatWatcher', () => {
  it('reports a zombie loop from its own timer once the loop stops beating, once per stall', async () => {
    const clock = new ManualClock();
    const zombies: Detection[] = [];
    const watcher = new HeartbeatWatcher(clock, config.heartbeat, (d) => zombies.push(d));
    watcher.start();
    for (let i = 0; i < 100; i++) {
      await clock.advance(50);
      watcher.beat();
    }
    expect(zombies).toEqual([]);
    const stoppedAt = clock.now();
    await clock.advance(10_000);
    expect(zombies).toHaveLength(1);
    expect(zombies[0]).toMatchObject({ type: 'heartbeat', zombie: true, failureCode: null, since: stoppedAt });
    expect(zombies[0]!.detectedAt - stoppedAt).toBeGreaterThan(config.heartbeat.timeoutMs);
    expect(zombies[0]!.detectedAt - stoppedAt).toBeLessThanOrEqual(
      config.heartbeat.timeoutMs + config.heartbeat.checkEveryMs,
    );
    watcher.beat();
    await clock.advance(10_000);
    expect(zombies).toHaveLength(2);
    watcher.stop();
    expect(clock.pendingTimers()).toBe(0);
  });
});
