import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/manual-clock.js';
import type { Detection } from '../../src/stuck/detection.js';
import { StuckDetectorSet } from '../../src/stuck/detector-set.js';
import { StuckStateArena } from '../../src/stuck/state-arena.js';
import { StuckMonitor } from '../../src/stuck/stuck-monitor.js';

function setup(config = {}) {
  const clock = new ManualClock();
  const seen: Detection[] = [];
  const monitor = new StuckMonitor({ clock, config, onDetection: (d) => seen.push(d) });
  return { clock, seen, monitor };
}

const here = { x: 10, y: 64, z: -3 };

describe('StuckMonitor', () => {
  it('trips position at the 101st still tick of a movement step while goto is in flight', async () => {
    const { clock, seen, monitor } = setup();
    monitor.beginStep({ movement: true, invocation: 'nav-1' });
    monitor.actuatorStarted();
    monitor.tick(here);
    let tripped: Detection | null = null;
    let ticks = 0;
    while (!tripped && ticks < 200) {
      await clock.advance(50);
      ticks += 1;
      tripped = monitor.tick(here);
    }
    expect(ticks).toBe(101);
    expect(tripped).toMatchObject({ type: 'position', position: here, detectedAt: 5_050 });
    expect(seen).toEqual([tripped]);
  });

  it('takes a movement step that reports rising progress standing still as active, and trips 5 s after the rise stops', async () => {
    const { clock, seen, monitor } = setup();
    monitor.beginStep({ movement: true, invocation: 'fight-1' });
    monitor.tick(here);
    // A fight holding its ground: a hit (or the mob a step closer) every 2 s for 12 s, unjudged for stalls.
    for (let ms = 50; ms <= 12_000; ms += 50) {
      await clock.advance(50);
      // Looking at the mob it waits for keeps the no-actuator watchdog fed, as the fight's looks do.
      monitor.actuatorStamp();
      if (ms % 2_000 === 0) monitor.progress(ms / 2_000, Number.NaN, false);
      monitor.tick(here);
    }
    expect(seen).toEqual([]);
    // The same value again is no progress: the bot that stands still with nothing happening is stuck as before.
    let tripped: Detection | null = null;
    while (!tripped && clock.now() < 20_000) {
      await clock.advance(50);
      monitor.actuatorStamp();
      monitor.progress(6, Number.NaN, false);
      tripped = monitor.tick(here);
    }
    expect(tripped).toMatchObject({ type: 'position', failureCode: 'stuck.position', detectedAt: 17_050 });
    // Unjudged reports never armed the progress detector.
    expect(seen.map((d) => d.type)).toEqual(['position']);
  });

  it('trips stuck.loop after 3 s without an actuator command and fills in the position', async () => {
    const { clock, seen, monitor } = setup();
    monitor.beginStep();
    for (let i = 0; i < 70 && seen.length === 0; i++) {
      await clock.advance(50);
      monitor.tick(here);
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      type: 'no_actuator',
      failureCode: 'stuck.loop',
      position: here,
      detectedAt: 3_050,
    });
  });

  it('reports every detection of one tick to the listener and returns the most urgent', async () => {
    const { clock, seen, monitor } = setup();
    monitor.beginStep({ invocationDeadlineMs: 3_000, invocation: 'dig-7' });
    monitor.tick(here);
    await clock.advance(3_001);
    const first = monitor.tick(here);
    expect(first?.type).toBe('hanging');
    expect(first?.evidence.invocation).toBe('dig-7');
    expect(seen.map((d) => d.type)).toEqual(['hanging', 'no_actuator']);
  });

  it('stops watching the invocation once it settles and everything once the step ends', async () => {
    const { clock, seen, monitor } = setup();
    monitor.beginStep({ invocationDeadlineMs: 1_000, movement: true, progress: 0, progressTotal: 5 });
    monitor.invocationSettled();
    monitor.endStep();
    for (let i = 0; i < 20; i++) {
      await clock.advance(1_000);
      monitor.tick(here);
    }
    expect(seen).toEqual([]);
    expect(monitor.stepActive).toBe(false);
  });

  it('passes path events to the path and flap detectors with the last known position', async () => {
    const { clock, seen, monitor } = setup();
    monitor.beginStep({ movement: true });
    monitor.tick(here);
    monitor.pathStatus('noPath');
    await clock.advance(100);
    monitor.pathStatus('timeout');
    await clock.advance(100);
    expect(monitor.pathStatus('noPath')).toMatchObject({ type: 'path', position: here, since: 0, detectedAt: 200 });
    for (const status of ['reached', 'stopped', 'reached', 'stopped', 'reached'] as const) {
      await clock.advance(500);
      monitor.pathStatus(status);
    }
    expect(seen.map((d) => d.type)).toEqual(['path', 'flap']);
  });

  it('times a state out and re-arms the state timer when a new step begins', async () => {
    const { clock, seen, monitor } = setup({ state: { timeoutsMs: { EXECUTING: 1_000 } } });
    monitor.setState('EXECUTING');
    for (let i = 0; i < 3; i++) {
      monitor.beginStep();
      monitor.actuatorStarted();
      await clock.advance(900);
      monitor.tick(here);
      monitor.endStep();
    }
    expect(seen).toEqual([]);
    await clock.advance(200);
    expect(monitor.tick(here)).toMatchObject({
      type: 'state',
      failureCode: 'state_timeout',
      evidence: { state: 'EXECUTING' },
    });
  });

  it('keeps agents apart when they share a detector set and an arena', async () => {
    const clock = new ManualClock();
    const detectors = new StuckDetectorSet();
    const arena = new StuckStateArena(detectors, 2);
    const stuck = new StuckMonitor({ clock, detectors, memory: arena.allocate() });
    const walking = new StuckMonitor({ clock, detectors, memory: arena.allocate() });
    expect(() => arena.allocate()).toThrow(/full: all 2 agent blocks/);
    for (const monitor of [stuck, walking]) {
      monitor.beginStep({ movement: true });
      monitor.actuatorStarted();
    }
    const trips: string[] = [];
    for (let i = 0; i <= 101; i++) {
      if (stuck.tick(here)) trips.push('stuck');
      if (walking.tick({ x: i * 0.2, y: 64, z: 0 })) trips.push('walking');
      await clock.advance(50);
    }
    expect(trips).toEqual(['stuck']);
  });
});
