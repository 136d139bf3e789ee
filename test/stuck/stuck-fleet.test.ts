import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { StuckFleet } from '../../src/stuck/index.js';

describe('StuckFleet', () => {
  it('gives each agent its own state while sharing one detector set per configuration', async () => {
    const clock = new ManualClock();
    const fleet = StuckFleet.for({ noActuator: { limitMs: 1_000 } });
    expect(StuckFleet.for({ noActuator: { limitMs: 1_000 } })).toBe(fleet);
    expect(StuckFleet.for({ noActuator: { limitMs: 2_000 } })).not.toBe(fleet);
    const agents = Array.from({ length: 300 }, () => fleet.monitor(clock));
    expect(new Set(agents.map((a) => a.detectors)).size).toBe(1);
    agents[0]!.beginStep();
    agents[299]!.beginStep();
    await clock.advance(900);
    agents[299]!.actuatorStamp();
    await clock.advance(200);
    expect(agents[0]!.tick({ x: 0, y: 0, z: 0 })?.type).toBe('no_actuator');
    expect(agents[299]!.tick({ x: 0, y: 0, z: 0 })).toBeNull();
    expect(agents[150]!.stepActive).toBe(false);
  });
});
