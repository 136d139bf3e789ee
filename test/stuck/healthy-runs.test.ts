import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/manual-clock.js';
import type { Vec3Like } from '../../src/contracts/world.js';
import type { Detection } from '../../src/stuck/detection.js';
import { StuckMonitor } from '../../src/stuck/stuck-monitor.js';

const TICK = 50;

/**
 * False positives: long healthy runs drive the monitor the way the executor
 * will (synthetic samples, virtual time) and must produce no detection at all.
 */
class HealthyAgent {
  readonly clock = new ManualClock();
  readonly detections: Detection[] = [];
  readonly monitor = new StuckMonitor({ clock: this.clock, onDetection: (d) => this.detections.push(d) });
  position: Vec3Like = { x: 0, y: 64, z: 0 };

  async tick(): Promise<void> {
    await this.clock.advance(TICK);
    this.monitor.tick(this.position);
  }

  /** Walks a path with corners at 4.3 blocks/s (sprint-free walking speed), goto in flight. */
  async walk(legs: ReadonlyArray<{ dx: number; dz: number; blocks: number }>): Promise<void> {
    const total = legs.reduce((sum, leg) => sum + leg.blocks, 0);
    this.monitor.beginStep({ movement: true, progress: -total, invocation: 'navigate' });
    this.monitor.pathStatus('planned');
    this.monitor.actuatorStarted();
    const perTick = 4.3 * (TICK / 1_000);
    let walked = 0;
    for (const leg of legs) {
      for (let done = 0; done < leg.blocks; done += perTick) {
        const step = Math.min(perTick, leg.blocks - done);
        this.position = { x: this.position.x + leg.dx * step, y: 64, z: this.position.z + leg.dz * step };
        walked += step;
        this.monitor.progress(walked - total);
        await this.tick();
      }
    }
    this.monitor.pathStatus('reached');
    this.monitor.actuatorSettled();
    this.monitor.invocationSettled();
    this.monitor.endStep();
  }

  /** Mines `blocks` blocks in place: each dig is in flight 700 ms, then 100 ms to pick the next. */
  async mine(blocks: number): Promise<void> {
    this.monitor.beginStep({ progress: 0, progressTotal: blocks, invocation: 'dig' });
    for (let mined = 0; mined < blocks; mined++) {
      this.monitor.actuatorStarted();
      for (let t = 0; t < 700; t += TICK) await this.tick();
      this.monitor.actuatorSettled();
      this.monitor.progress(mined + 1, blocks);
      for (let t = 0; t < 100; t += TICK) await this.tick();
    }
    this.monitor.invocationSettled();
    this.monitor.endStep();
  }

  /** Waits (e.g. for a furnace), looking around every 2.9 s: legitimate and just under the 3 s limit. */
  async waitLegitimately(ms: number): Promise<void> {
    this.monitor.beginStep({ invocation: 'wait', invocationDeadlineMs: ms + 5_000 });
    for (let waited = 0; waited < ms; waited += TICK) {
      if (waited % 2_900 === 0) this.monitor.actuatorStamp();
      await this.tick();
    }
    this.monitor.invocationSettled();
    this.monitor.endStep();
  }
}

describe('healthy runs produce no detections', () => {
  it('walking, mining and waiting for 20 simulated minutes', async () => {
    const agent = new HealthyAgent();
    agent.monitor.setState('EXECUTING');
    const route = [
      { dx: 1, dz: 0, blocks: 30 },
      { dx: 0, dz: 1, blocks: 12 },
      { dx: -1, dz: 0, blocks: 8 },
      { dx: 0, dz: -1, blocks: 20 },
    ];
    while (agent.clock.now() < 20 * 60_000) {
      agent.monitor.setState('PLANNING');
      await agent.tick();
      agent.monitor.setState('EXECUTING');
      await agent.walk(route);
      await agent.mine(20);
      await agent.waitLegitimately(15_000);
      await agent.walk([
        { dx: -1, dz: 0, blocks: 3 },
        { dx: 1, dz: 0, blocks: 3 },
      ]);
    }
    expect(agent.detections).toEqual([]);
  });
});
