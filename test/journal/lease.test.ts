import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { assembleJournaled, PlanConflictError } from '../../src/journal/journaled-executor.js';
import { LeaseHeldError, PlanLease } from '../../src/journal/lease.js';
import type { IncidentRow, PlanLeaseRow } from '../../src/journal/rows.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp } from './helpers.js';

/**
 * A journal whose wall time is the manual clock's, so heartbeats age only when
 * the test moves time; `hang` moves the journal's time alone, as for a process
 * whose timers stopped firing.
 */
function leased() {
  const clock = new ManualClock();
  let hungAt: number | null = null;
  const { journal } = openTemp(() => hungAt ?? clock.now());
  const alive = () => true;
  return {
    clock,
    journal,
    hang: (at: number) => (hungAt = at),
    take: (kind: string, onLost?: (by: string) => void) =>
      PlanLease.acquire(journal, 'p', { clock, kind, isAlive: alive, ...(onLost ? { onLost } : {}) }),
  };
}

describe('plan lease', () => {
  it('a second taker loses while the holder beats, with the holder named (pid, host, since when)', async () => {
    const { clock, journal, take } = leased();
    const first = take('run');
    await clock.advance(60_000);
    expect(() => take('resume')).toThrow(LeaseHeldError);
    expect(() => take('resume')).toThrow(
      `plan "p" is held by pid ${process.pid} on ${hostname()} (verbtree run) since 1970-01-01T00:00:00.000Z (last heartbeat 0s ago): two runs of one plan must not act at once; wait for it to end or stop that process (its lease can be taken over 30s after its heartbeat stops)`,
    );
    // Its heartbeat followed the clock: a minute on, it is still the holder, not a stale one.
    expect(
      (journal.sql('SELECT heartbeat_at FROM plan_leases').get() as Pick<PlanLeaseRow, 'heartbeat_at'>).heartbeat_at,
    ).toBe(60_000);
    first.release();
    expect(journal.sql('SELECT COUNT(*) AS n FROM plan_leases').get()).toEqual({ n: 0 });
    take('resume').release();
    expect(journal.sql('SELECT COUNT(*) AS n FROM incidents').get()).toEqual({ n: 0 });
  });

  it('a holder whose heartbeat stopped is taken over, as an incident; the old holder learns it at its next renewal', () => {
    const { journal, hang, take } = leased();
    let lostTo: string | null = null;
    const first = take('run', (by) => (lostTo = by));
    // Its timer never fires: a hung process whose heartbeat stopped 30 s ago.
    hang(30_001);
    const second = take('resume');
    const incident = journal.sql('SELECT * FROM incidents').get() as IncidentRow;
    expect(incident).toMatchObject({
      plan_id: 'p',
      failure_mode: 'lease_takeover',
      resolution: `taken over by pid ${process.pid} on ${hostname()} (resume): its heartbeat stopped 30s ago (limit 30s)`,
    });
    expect(first.renew()).toBe(false);
    expect(lostTo).toBe(`pid ${process.pid} on ${hostname()} (verbtree resume)`);
    // The loser's release leaves the new holder's lease alone.
    first.release();
    expect(second.renew()).toBe(true);
    expect(journal.sql('SELECT kind FROM plan_leases').get()).toEqual({ kind: 'resume' });
  });

  it('a holder whose process is gone from this host is taken over at once', () => {
    const { clock, journal } = leased();
    PlanLease.acquire(journal, 'p', { clock, kind: 'run', isAlive: () => true });
    PlanLease.acquire(journal, 'p', { clock, kind: 'resume', isAlive: () => false });
    expect(journal.sql('SELECT failure_mode, resolution FROM incidents').get()).toEqual({
      failure_mode: 'lease_takeover',
      resolution: `taken over by pid ${process.pid} on ${hostname()} (resume): its process ${process.pid} is gone`,
    });
  });

  it('a journaled executor holds the plan for its run: a second run of it is refused naming the holder, and the lease is gone when the run ends', async () => {
    const clock = new ManualClock();
    const { journal } = openTemp();
    const assembly = await assembleJournaled({
      registry: createDefaultRegistry(),
      world: SimWorld.create({ clock }),
      clock,
      journal,
      kind: 'serve',
    });
    const plan = {
      planId: 'walk',
      intentId: 'i',
      steps: [{ stepId: 'go', type: 'navigate', args: { target: { kind: 'block', x: 6, y: 0, z: 0 } } }],
    };
    const other = PlanLease.acquire(journal, 'walk', { clock, kind: 'run' });
    expect(() => assembly.run(plan)).toThrow(PlanConflictError);
    expect(() => assembly.run(plan)).toThrow(/^plan "walk" is held by pid \d+ on .+ \(verbtree run\) since /);
    // Refused before anything was journaled or dispatched.
    expect(journal.sql('SELECT COUNT(*) AS n FROM runs').get()).toEqual({ n: 0 });
    other.release();
    let done = false;
    const run = assembly.run(plan);
    void run.result.then(() => (done = true));
    expect(journal.sql('SELECT plan_id, kind FROM plan_leases').get()).toEqual({ plan_id: 'walk', kind: 'serve' });
    await clock.runUntil(() => done, 60_000);
    expect((await run.result).ok).toBe(true);
    await Promise.resolve();
    expect(journal.sql('SELECT COUNT(*) AS n FROM plan_leases').get()).toEqual({ n: 0 });
    await assembly.close();
  });
});
