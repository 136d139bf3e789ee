import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { FleetWorker, leaseTiming } from '../../src/cli/worker/fleet-worker.js';
import type { HeldBotDeps } from '../../src/cli/worker/held-bot.js';
import type { Journal } from '../../src/journal/journal.js';
import type { BotReport, Fence } from '../../src/journal/rows.js';

/*
 * A bot whose server is away from the start (its first join refused, waiting with backoff in joinAsBot) is as away as
 * one whose session dropped: it counts as disconnected since its wait began, and past the worker's away limit, on the
 * injectable clock, it is given up (SERVER UNREACHABLE, its lease released) and the worker claims nothing until the
 * server answers a status ping, a `server_unreachable` incident open in the journal meanwhile. Before, such a bot held its lease and waited for ever, unseen by the metrics.
 */

const LIMIT_MS = 10_000;
const WAITING = 'waiting for the game server at 127.0.0.1:25599';

/** A worker of one bot, rb, on a journal that answers at once, whose join never gets past a server that is away. */
function workerWhoseServerIsAway() {
  const clock = new ManualClock();
  const lines: string[] = [];
  const reports: BotReport[] = [];
  const claimed: string[] = [];
  const released: Fence[] = [];
  const incidents: { mode: string; details: unknown; resolution?: string }[] = [];
  const fleet = { rb: false };
  let held: Fence[] = [];
  const journal = {
    addBot: () => Promise.resolve(),
    listBots: () => Promise.resolve([{ name: 'rb', held: fleet.rb }]),
    claimBot: (bot: string) => {
      claimed.push(bot);
      fleet.rb = true;
      held = [{ bot, epoch: claimed.length }];
      return Promise.resolve(claimed.length);
    },
    renewLeases: () => Promise.resolve(held),
    releaseBot: (fence: Fence) => {
      released.push({ bot: fence.bot, epoch: fence.epoch });
      fleet.rb = false;
      held = [];
      return Promise.resolve(true);
    },
    reportBots: (rows: readonly BotReport[]) => (reports.push(...rows), Promise.resolve(rows.length)),
    queuedBots: () => Promise.resolve([]),
    revokeFence: () => undefined,
    openIncident: ({ mode, details }: { mode: string; details: unknown }) =>
      Promise.resolve(incidents.push({ mode, details })),
    resolveIncident: (id: number, resolution: string) =>
      Promise.resolve(void (incidents[id - 1]!.resolution = resolution)),
  } as unknown as Journal;
  // The join as joinAsBot makes it while the server refuses: its status said once, then tries until cancelled.
  const joinWhileAway: HeldBotDeps['join'] = (_bot, cancel, waiting) => {
    waiting?.(WAITING);
    return new Promise((_, reject) => cancel.addEventListener('abort', () => reject(cancel.reason as Error)));
  };
  const server = { answers: false };
  const deps = {
    journal,
    clock,
    say: (line: string) => void lines.push(line),
    join: joinWhileAway,
    pollEveryMs: 2_000,
    graceMs: 2_000,
    awayLimitMs: LIMIT_MS,
    reachable: () => Promise.resolve(server.answers),
  } as unknown as ConstructorParameters<typeof FleetWorker>[0];
  const timing = leaseTiming(30_000);
  const worker = new FleetWorker(deps, { nodeId: 'w1', bots: ['rb'], capacity: 1, timing });
  return { clock, lines, reports, claimed, released, incidents, server, worker, timing };
}

describe("a bot whose server is away before its first join, under its worker's away limit", () => {
  it('counts as disconnected since its wait began, and past the limit is given up, its lease released, and claimed again only once the server answers', async () => {
    const { clock, lines, reports, claimed, released, incidents, server, worker, timing } = workerWhoseServerIsAway();
    await worker.start();
    await clock.advance(0);
    expect(claimed).toEqual(['rb']);

    // Within the limit: held, its lease renewed, away since its wait began, as the metrics and /api/bots say.
    await clock.advance(LIMIT_MS - 1);
    expect(worker.botsHeld).toBe(1);
    expect(worker.outage().disconnected.map((d) => d.bot)).toEqual(['rb']);
    expect(worker.outage().unreachableSince).toBeNull();
    expect(reports.at(-1)).toMatchObject({ bot: 'rb', connected: false, position: null });
    expect(reports.at(-1)?.state).toMatch(new RegExp(`^${WAITING} since \\d{4}-\\d\\d-\\d\\dT`));
    expect(lines.join('\n')).not.toMatch(/SERVER UNREACHABLE/);

    // At the limit: given up like a bot whose session dropped, its lease released for a worker that can reach it.
    await clock.advance(1);
    await clock.advance(0);
    expect(lines.join('\n')).toMatch(/rb: SERVER UNREACHABLE for 10000 ms \(limit 10000 ms\)/);
    expect(released).toEqual([{ bot: 'rb', epoch: 1 }]);
    expect(worker.botsHeld).toBe(0);
    expect(worker.counts.fences.released).toBe(1);
    expect(worker.outage().unreachableSince).not.toBeNull();
    expect(worker.outage().disconnected).toEqual([]);
    // Said in the journal too: an open incident makes every gateway's health degraded until the server answers.
    expect(incidents.map((i) => i.mode)).toEqual(['server_unreachable']);
    expect(incidents[0]?.details).toMatchObject({ bot: 'rb', awayMs: 10_000, limitMs: LIMIT_MS });

    // It claims nothing while the server does not answer, and claims again once it does.
    await clock.advance(timing.claimEveryMs * 3);
    expect(claimed).toEqual(['rb']);
    server.answers = true;
    await clock.advance(timing.claimEveryMs);
    expect(claimed).toEqual(['rb', 'rb']);
    expect(worker.outage().unreachableSince).toBeNull();
    await clock.advance(0);
    expect(incidents[0]?.resolution).toMatch(/^the game server answered again after \d+ ms$/);
    await worker.stop({ code: 'interrupted', reason: 'the test ended' });
  });
});
