import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { FleetWorker, leaseTiming } from '../../src/cli/worker/fleet-worker.js';
import type { HeldBotDeps } from '../../src/cli/worker/held-bot.js';
import type { Journal } from '../../src/journal/journal.js';
import type { Fence } from '../../src/journal/rows.js';

/** A statement whose answer the test gives when it chooses: the order in which the database answered. */
function answerLater<T>() {
  let answer!: (value: T) => void;
  const answered = new Promise<T>((resolve) => (answer = resolve));
  return { answered, answer };
}

/**
 * A worker of one bot, rb, on a journal whose claims and renewals the test answers by hand (only the statements the
 * worker's leases use; the bot's join waits until it is fenced, so no plan is read).
 */
function workerOnHandAnsweredJournal() {
  const clock = new ManualClock();
  const lines: string[] = [];
  const claims: ReturnType<typeof answerLater<number | null>>[] = [];
  const renewals: ReturnType<typeof answerLater<Fence[]>>[] = [];
  const journal = {
    addBot: () => Promise.resolve(),
    listBots: () => Promise.resolve([{ name: 'rb', held: false }]),
    claimBot: () => {
      claims.push(answerLater<number | null>());
      return claims.at(-1)!.answered;
    },
    renewLeases: () => {
      renewals.push(answerLater<Fence[]>());
      return renewals.at(-1)!.answered;
    },
    releaseBot: () => Promise.resolve(true),
    reportBots: () => Promise.resolve(0),
    queuedBots: () => Promise.resolve([]),
    revokeFence: () => undefined,
  } as unknown as Journal;
  const joinUntilFenced = (_bot: string, cancel: AbortSignal) =>
    new Promise<never>((_, reject) => cancel.addEventListener('abort', () => reject(cancel.reason as Error)));
  const deps = {
    journal,
    clock,
    say: (line: string) => void lines.push(line),
    join: joinUntilFenced,
    pollEveryMs: 2_000,
    graceMs: 2_000,
  } as unknown as Omit<HeldBotDeps, 'planQueued' | 'serverAway'> & { clock: ManualClock };
  const timing = leaseTiming(10_000);
  const worker = new FleetWorker(deps, { nodeId: 'w1', bots: ['rb'], capacity: 1, timing });
  return { clock, lines, claims, renewals, worker, timing };
}

describe("a worker's renewal and a claim under way at once", () => {
  it('a renewal sent while a claim was on its way, answered without that bot, does not fence it: it may have run before the claim', async () => {
    const { clock, lines, claims, renewals, worker, timing } = workerOnHandAnsweredJournal();
    void worker.start();
    await clock.advance(0);
    expect(claims).toHaveLength(1);
    // The claim is sent, then a renewal; the renewal runs first (rb is not yet this worker's), then the claim.
    await clock.advance(timing.renewEveryMs);
    expect(renewals).toHaveLength(1);
    claims[0]!.answer(1);
    await clock.advance(0);
    renewals[0]!.answer([]);
    await clock.advance(0);
    expect(lines.join('\n')).not.toMatch(/fenced rb/);
    expect(worker.botsHeld).toBe(1);

    // The next renewal, sent after the claim came back, renews it: its self-fence moves on, past the claim's.
    await clock.advance(timing.renewEveryMs);
    renewals[1]!.answer([{ bot: 'rb', epoch: 1 }]);
    await clock.advance(timing.fenceAfterMs - timing.renewEveryMs);
    expect(lines.join('\n')).not.toMatch(/fenced rb/);
    expect(worker.botsHeld).toBe(1);
    await worker.stop({ code: 'interrupted', reason: 'the test ended' });
  });

  it('a renewal sent after the claim came back, answered without that bot, fences it: its lease moved on', async () => {
    const { clock, lines, claims, renewals, worker, timing } = workerOnHandAnsweredJournal();
    void worker.start();
    await clock.advance(0);
    claims[0]!.answer(1);
    await clock.advance(timing.renewEveryMs);
    renewals[0]!.answer([]);
    await clock.advance(0);
    expect(lines.join('\n')).toMatch(/fenced rb \(epoch 1, lease_lost\): lease_lost: its lease was not renewed/);
    await worker.stop({ code: 'interrupted', reason: 'the test ended' });
  });
});
