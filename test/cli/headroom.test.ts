import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { Admission } from '../../src/cli/worker/admission.js';
import {
  admits,
  HeadroomLimits,
  HeadroomMonitor,
  headroomOf,
  type Headroom,
  type LoadSources,
} from '../../src/cli/worker/headroom.js';

const limits = HeadroomLimits.parse({ loopDelayMs: 200, cpu: 0.8, windowMs: 1_000 });

/** Load a test sets: the loop's lateness of the window under way, and the CPU time used so far. */
function fakeLoad(): LoadSources & { late: number; cpuUsed: number } {
  return {
    late: 0,
    cpuUsed: 0,
    loopDelayMs() {
      return this.late;
    },
    cpuMs() {
      return this.cpuUsed;
    },
  };
}

describe('a worker’s headroom (issue 34: admission by headroom, never failure by load)', () => {
  it('has room while both the loop delay and the CPU are below their limits, and names the one past it', () => {
    expect(headroomOf(null, limits)).toEqual({ room: false, reason: 'its load is not measured yet' });
    expect(headroomOf({ loopDelayMs: 199, cpu: 0.79 }, limits)).toEqual({ room: true });
    expect(headroomOf({ loopDelayMs: 812.4, cpu: 0.1 }, limits)).toEqual({
      room: false,
      reason: 'its event loop runs 812 ms late (limit 200 ms)',
    });
    expect(headroomOf({ loopDelayMs: 10, cpu: 0.95 }, limits)).toEqual({
      room: false,
      reason: 'its process used 0.95 of a core (limit 0.8)',
    });
    // A limit of 0 is never met: such a worker takes one at a time.
    expect(headroomOf({ loopDelayMs: 0, cpu: 0 }, { loopDelayMs: 0, cpu: 1 }).room).toBe(false);
  });

  it('admits one more while it has room, and past it only when nothing is under way', () => {
    const none: Headroom = { room: false, reason: 'busy' };
    expect(admits({ room: true }, 40)).toBe(true);
    expect(admits(none, 0)).toBe(true);
    expect(admits(none, 1)).toBe(false);
  });

  it('measures each window on the clock: the loop delay of the window and the CPU share of its length', async () => {
    const clock = new ManualClock();
    const load = fakeLoad();
    const monitor = new HeadroomMonitor(clock, limits, load);
    monitor.start();
    expect(monitor.last).toBeNull();
    expect(monitor.headroom().room).toBe(false);
    load.late = 30;
    load.cpuUsed = 900;
    await clock.advance(1_000);
    expect(monitor.last).toEqual({ loopDelayMs: 30, cpu: 0.9 });
    expect(monitor.headroom()).toEqual({ room: false, reason: 'its process used 0.90 of a core (limit 0.8)' });
    // A window that fired late (a busy loop) is judged by its real length.
    load.late = 5;
    load.cpuUsed = 900 + 500;
    await clock.advance(1_000);
    expect(monitor.last).toEqual({ loopDelayMs: 5, cpu: 0.5 });
    expect(monitor.headroom()).toEqual({ room: true });
    monitor.stop();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('holds plans back past its headroom, lets them in one by one as it comes back, and reports them waiting', async () => {
    let headroom: Headroom = { room: true };
    const said: string[] = [];
    const admission = new Admission({ headroom: () => headroom }, (line) => said.push(line));
    const never = new AbortController().signal;
    const first = await admission.admit('ann', never);
    headroom = { room: false, reason: 'its event loop runs 900 ms late (limit 200 ms)' };
    let bobIn = false;
    let cyIn = false;
    void admission.admit('bob', never).then(() => (bobIn = true));
    void admission.admit('cy', never).then(() => (cyIn = true));
    admission.pickedUp(['bob']);
    await Promise.resolve();
    expect([bobIn, cyIn, admission.plansWaiting, admission.plansHeldBack]).toEqual([false, false, 1, 2]);
    const report = {
      bot: 'bob',
      epoch: 1,
      connected: true,
      state: 'IDLE',
      kind: 'sim',
      position: null,
      health: 20,
      food: 20,
    };
    expect(admission.reported(report)?.state).toBe('WAITING');
    expect(admission.reported({ ...report, bot: 'ann' })?.state).toBe('IDLE');
    // ann's plan ends: with nothing under way, one held-back bot starts, not both.
    first.done();
    admission.pickedUp(['bob', 'cy']);
    await Promise.resolve();
    expect([bobIn, cyIn]).toEqual([true, false]);
    headroom = { room: true };
    admission.pickedUp(['cy']);
    await Promise.resolve();
    expect([bobIn, cyIn, admission.plansWaiting]).toEqual([true, true, 0]);
    expect(said).toEqual([
      'no headroom: its event loop runs 900 ms late (limit 200 ms): claiming no more bots and starting no more plans until it has',
      'headroom again: claiming bots and starting plans',
    ]);
  });
});
