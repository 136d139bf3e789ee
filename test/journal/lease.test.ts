import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { assembleJournaled, PlanConflictError } from '../../src/journal/journaled-executor.js';
import { LeaseHeldError, PlanLease } from '../../src/journal/lease.js';
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
    const first = await take('run');
    await clock.advance(60_000);
    await expect(take('resume')).rejects.toThrow(LeaseHeldError);
    await expect(take('resume')).rejects.toThrow(
      `plan "p" is held by pid ${process.pid} on ${hostname()} (verbtree run) since 1970-01-01T00:00:00.000Z (last heartbeat 0s ago): two runs of one plan must not act at once; wait for it to end or stop that process (its lease can be taken over 30s after its heartbeat stops)`,
    );
    // Its heartbeat followed the clock: a minute on, it is still the holder, not a stale one.
    expect((await journal.planLeaseHolder('p'))?.heartbeat_at).toBe(60_000);
    await first.release();
    expect(await journal.planLeaseHolder('p')).toBeUndefined();
    await (await take('resume')).release();
    expect((await journal.listIncidents()).total).toBe(0);
  });

  it('a holder whose heartbeat stopped is taken over, as an incident; the old holder learns it at its next renewal', async () => {
    const { journal, hang, take } = leased();
    let lostTo: string | null = null;
    const first = await take('run', (by) => (lostTo = by));
    // Its timer never fires: a hung process whose heartbeat stopped 30 s ago.
    hang(30_001);
    const second = await take('resume');
    const [incident] = (await journal.listIncidents()).incidents;
    expect(incident).toMatchObject({
      plan_id: 'p',
      failure_mode: 'lease_takeover',
      resolution: `taken over by pid ${process.pid} on ${hostname()} (resume): its heartbeat stopped 30s ago (limit 30s)`,
    });
    expect(await first.renew()).toBe(false);
    expect(lostTo).toBe(`pid ${process.pid} on ${hostname()} (verbtree resume)`);
    // The loser's release leaves the new holder's lease alone.
    await first.release();
    expect(await second.renew()).toBe(true);
    expect((await journal.planLeaseHolder('p'))?.kind).toBe('resume');
  });

  it('a holder whose process is gone from this host is taken over at once', async () => {
    const { clock, journal } = leased();
    await PlanLease.acquire(journal, 'p', { clock, kind: 'run', isAlive: () => true });
    await PlanLease.acquire(journal, 'p', { clock, kind: 'resume', isAlive: () => false });
    expect((await journal.listIncidents()).incidents).toMatchObject([
      {
        failure_mode: 'lease_takeover',
        resolution: `taken over by pid ${process.pid} on ${hostname()} (resume): its process ${process.pid} is gone`,
      },
    ]);
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
    const other = await PlanLease.acquire(journal, 'walk', { clock, kind: 'run' });
    await expect(assembly.run(plan)).rejects.toThrow(PlanConflictError);
    await expect(assembly.run(plan)).rejects.toThrow(/^plan "walk" is held by pid \d+ on .+ \(verbtree run\) since /);
    // Refused before anything was journaled or dispatched.
    expect(await journal.listRuns()).toEqual([]);
    await other.release();
    let done = false;
    const run = await assembly.run(plan);
    void run.result.then(() => (done = true));
    expect(await journal.planLeaseHolder('walk')).toMatchObject({ plan_id: 'walk', kind: 'serve' });
    await clock.runUntil(() => done, 60_000);
    expect((await run.result).ok).toBe(true);
    await assembly.close();
    expect(await journal.planLeaseHolder('walk')).toBeUndefined();
  });
});
