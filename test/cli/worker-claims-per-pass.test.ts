import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { FleetWorker, leaseTiming } from '../../src/cli/worker/fleet-worker.js';
import type { HeldBotDeps } from '../../src/cli/worker/held-bot.js';
import type { Journal } from '../../src/journal/journal.js';
import { PostgresJournal } from '../../src/journal/postgres/postgres-journal.js';
import { usePostgres } from '../helpers/use-postgres.js';

/*
 * Issue 34: a fresh worker with headroom took every free bot of the fleet in its first claim pass, before the load of
 * the bots it took could show in its headroom. A pass now takes at most `claimsPerPass`; the rest are taken on its
 * later passes or by other workers. Real PostgreSQL claims; the bots' joins wait until they are fenced (no game
 * server: the test is about leases), and the workers' timers run on a manual clock.
 */

const cluster = usePostgres();

/** A lease long enough that no renewal is late while the test moves the clock one claim pass at a time. */
const timing = leaseTiming(60_000);

/**
 * The journal as the workers use it, with what it has under way counted: `settled` resolves once nothing is under way
 * and nothing new started in the turn after (a worker's next statement follows its last one's answer within a turn).
 */
function counted(journal: PostgresJournal) {
  let underWay = 0;
  let wake = () => undefined as void;
  const proxy = new Proxy(journal, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!(result instanceof Promise)) return result;
        underWay++;
        void result
          .finally(() => {
            underWay--;
            wake();
          })
          .catch(() => undefined);
        return result;
      };
    },
  }) as unknown as Journal;
  async function settled(): Promise<void> {
    for (;;) {
      if (underWay > 0) await new Promise<void>((resolve) => (wake = resolve));
      await new Promise((resolve) => setImmediate(resolve));
      if (underWay === 0) return;
    }
  }
  return { journal: proxy, settled };
}

function fleetWorker(journal: Journal, clock: ManualClock, nodeId: string, claimsPerPass: number) {
  const joinUntilFenced = (_bot: string, cancel: AbortSignal) =>
    new Promise<never>((_, reject) => cancel.addEventListener('abort', () => reject(cancel.reason as Error)));
  const deps = {
    journal,
    clock,
    say: () => undefined,
    join: joinUntilFenced,
    pollEveryMs: 2_000,
    graceMs: 2_000,
  } as unknown as Omit<HeldBotDeps, 'planQueued' | 'serverAway'> & { clock: ManualClock };
  return new FleetWorker(deps, { nodeId, bots: [], capacity: 20, claimsPerPass, timing });
}

describe('a claim pass takes at most claimsPerPass bots', () => {
  it('a fresh worker takes 3 of 8 free bots in its first pass; a second worker takes 3 in its own; the next passes take the last 2', async () => {
    const real = await PostgresJournal.open(await cluster.database());
    const { journal, settled } = counted(real);
    const clock = new ManualClock();
    const first = fleetWorker(journal, clock, 'w1', 3);
    const second = fleetWorker(journal, clock, 'w2', 3);
    const heldBy = async () => {
      const bots = await real.listBots();
      const count = (holder: string) => bots.filter((b) => b.held && b.holder === holder).length;
      return { w1: count('w1'), w2: count('w2'), free: bots.filter((b) => !b.held).length };
    };
    try {
      for (let i = 0; i < 8; i++) await real.addBot({ name: `cp${i}` });

      await first.start();
      await settled();
      expect(await heldBy()).toEqual({ w1: 3, w2: 0, free: 5 });

      await second.start();
      await settled();
      expect(await heldBy()).toEqual({ w1: 3, w2: 3, free: 2 });

      // Both workers' next passes run at the same time and share what is left between them.
      await clock.advance(timing.claimEveryMs);
      await settled();
      const after = await heldBy();
      expect(after.free).toBe(0);
      expect(after.w1 + after.w2).toBe(8);
      expect(first.botsHeld + second.botsHeld).toBe(8);
    } finally {
      await first.stop({ code: 'interrupted', reason: 'the test ended' });
      await second.stop({ code: 'interrupted', reason: 'the test ended' });
      await real.close();
    }
  });
});
