import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { sleep } from '../../src/cli/worker/timing.js';
import { HeldBot } from '../../src/cli/worker/held-bot.js';
import { simIdentity } from '../../src/cli/worlds/sim.js';
import { ManualClock } from '../../src/clock/index.js';
import type { Fence } from '../../src/journal/rows.js';
import { JournalRunner } from '../../src/journal/runner.js';
import { connect, createServer, type AddressInfo } from 'node:net';
import type { Journal } from '../../src/journal/journal.js';
import { FleetBots } from '../../src/operations/fleet-bots.js';
import { createOperations } from '../../src/operations/operations.js';
import { SUPERFLAT_GROUND } from '../../src/world/sim-scenario.js';
import { SimWorld } from '../../src/world/sim/sim-world.js';
import { openJournal } from '../../src/journal/open.js';
import { openTemp } from '../journal/helpers.js';
import { rawClient } from '../helpers/postgres.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { refusal } from '../helpers/operations.js';

const registry = createDefaultRegistry();
const MINUTE = 60_000;
const POLL_MS = 500;
const walk = (planId: string, x: number) => ({
  planId,
  intentId: 'i',
  steps: [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x, y: 5, z: 0, range: 1 } } }],
});

/**
 * A worker's held bot in this process (the worker's own code: HeldBot, its journaled executor, its control watch) on
 * a SimWorld and a manual clock, and a gateway's operations over the same journal: what a gateway asks of a plan
 * reaches the run only through the journal's rows.
 */
async function fleet(
  before?: (journal: Journal, fence: Fence) => Promise<void>,
  journal: Journal = openTemp().journal,
) {
  const clock = new ManualClock();
  await journal.addBot({ name: 'ann' });
  const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', MINUTE))! };
  await before?.(journal, fence);
  const runner = new JournalRunner(journal, {
    kind: 'worker',
    clock,
    node: { id: 'w1', takeOverSilentAfterMs: MINUTE },
  });
  await runner.start();
  const world = SimWorld.create({ clock, seed: 1, ground: SUPERFLAT_GROUND, spawn: { x: 0, y: 5, z: 0 } });
  const lines: string[] = [];
  const bot = new HeldBot(fence, 'w1', {
    journal,
    registry,
    extraTreePaths: [],
    runner,
    clock,
    say: (line) => lines.push(line),
    join: () =>
      Promise.resolve({
        world,
        clock,
        describe: 'SimWorld',
        descriptor: { world: 'sim', seed: 1, identity: simIdentity(1, undefined) },
        protect: [],
        close: () => world.close(),
      }),
    pollEveryMs: POLL_MS,
    planQueued: (_bot, cancel) => sleep(clock, POLL_MS, cancel),
    graceMs: 1_000,
  });
  // Joining builds the bot's executor, loading its trees from disk: real I/O, which no manual clock moves on.
  expect(await withRealIo(clock, () => bot.report() !== null)).toBe(true);
  const ops = createOperations({ registry, journal, bots: new FleetBots(journal), clock });
  const said = (text: string) => () => lines.some((l) => l.includes(text));
  const state = () => bot.report()?.state;
  stops.push(async () => {
    await bot.stop({ code: 'interrupted', reason: 'the test is over' });
    await runner.stop();
    await journal.close();
  });
  return { journal, clock, world, ops, said, state, lines };
}

/**
 * Runs the manual clock until `done`, 50 ms a turn, letting real I/O (files, sockets) answer between its turns, as it
 * never does while the clock alone runs; false when `turns` were not enough.
 */
async function withRealIo(clock: ManualClock, done: () => boolean, turns = 1_000): Promise<boolean> {
  for (let turn = 0; !done() && turn < turns; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await clock.advanceUntil(done, 50);
  }
  return done();
}

/** The error a connection to a port nobody listens on fails with, as node's socket gives it (code ECONNREFUSED). */
async function connectionRefused(): Promise<Error> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return new Promise((resolve) => connect(port, '127.0.0.1').on('error', resolve));
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

describe("a gateway's control of a fleet plan, applied by the worker that holds the bot", () => {
  it('pauses the walk where it is, lets it go on, cancels it; a queued plan cancelled never starts; the next one runs', async () => {
    const { journal, clock, world, ops, said, state } = await fleet();
    await ops.start(walk('far', 300), { bot: 'ann' });
    await ops.start(walk('back', 0), { bot: 'ann' });
    await ops.start(walk('never', 5), { bot: 'ann' });
    expect(await ops.cancel('never', 'changed my mind')).toEqual({ planId: 'never', action: 'cancel', pending: false });

    expect(await clock.runUntil(() => state() === 'EXECUTING' && world.position().x > 3, MINUTE)).toBe(true);
    expect(await ops.pause('far', 'hold on')).toEqual({ planId: 'far', action: 'pause', pending: true });
    expect(await clock.runUntil(() => state() === 'PAUSED', 5 * POLL_MS)).toBe(true);
    const heldAt = world.position().x;
    await clock.advance(10_000);
    expect(world.position().x).toBe(heldAt);
    expect(await refusal(() => ops.pause('far'))).toMatchObject({
      kind: 'conflict',
      message: expect.stringContaining('it is already paused') as string,
    });

    await ops.resume('far');
    expect(await clock.runUntil(() => world.position().x > heldAt + 3, MINUTE)).toBe(true);
    expect(await refusal(() => ops.replaceRemaining('far', []))).toMatchObject({
      kind: 'conflict',
      message: expect.stringContaining('runs on fleet bot ann in a worker') as string,
    });
    expect(await ops.cancel('far', 'enough')).toMatchObject({ pending: true });
    expect(await clock.runUntil(said('plan far on ann: failed aborted'), 5 * POLL_MS)).toBe(true);
    expect(await journal.plan('far')).toMatchObject({ status: 'cancelled' });
    expect(world.position().x).toBeLessThan(300 - 10);

    expect(await clock.runUntil(said('plan back on ann: succeeded'), 2 * MINUTE)).toBe(true);
    expect(await clock.runUntil(() => state() === 'COMPLETED' || state() === 'IDLE', 5 * POLL_MS)).toBe(true);
    const events = (await journal.eventHistory('far', { after: 0, limit: 500 }))!.rows;
    expect(events.filter((e) => e.type.startsWith('plan.')).map((e) => e.type)).toEqual(
      expect.arrayContaining(['plan.paused', 'plan.resumed', 'plan.cancelled', 'plan.ended']),
    );
    expect(events.find((e) => e.type === 'plan.cancelled')?.event).toMatchObject({ reason: 'enough' });
    expect(await journal.plan('never')).toMatchObject({ status: 'cancelled' });
    expect(await journal.eventHistory('never', { after: 0, limit: 10 })).toMatchObject({ rows: [] });
    expect(await refusal(() => ops.cancel('far'))).toMatchObject({
      kind: 'conflict',
      message: 'plan "far" cannot be cancelled: it has already ended (cancelled)',
    });
  });

  it('ends a plan cancelled after its bot was handed it, before it ran, without running it', async () => {
    const { journal, clock, world, said } = await fleet(async (journal, fence) => {
      const plan = walk('taken', 50);
      await journal.enqueuePlan({ ...plan, bot: 'ann', body: plan });
      // A holder took it, then stopped before its run began; the operator cancels it meanwhile.
      expect(await journal.claimNextPlan(fence)).toMatchObject({ planId: 'taken' });
      expect(await journal.requestPlanControl('taken', 'cancel', 'not now')).toMatchObject({ outcome: 'requested' });
    });
    expect(await clock.runUntil(said('plan taken on ann: cancelled before it started: not now'), MINUTE)).toBe(true);
    expect(await journal.plan('taken')).toMatchObject({ status: 'cancelled' });
    await clock.advance(10_000);
    expect(world.position()).toMatchObject({ x: 0.5, z: 0.5 });
  });

  it("starts a plan as its claim read it, with no read of the plan's row before the run: one paused while queued starts paused", async () => {
    const journal = openTemp().journal;
    const reads = vi.spyOn(journal, 'planControl');
    const { clock, world, ops, said } = await fleet(async (journal) => {
      const plan = walk('held', 30);
      await journal.enqueuePlan({ ...plan, bot: 'ann', body: plan });
      expect(await journal.requestPlanControl('held', 'pause', 'wait for it')).toMatchObject({ outcome: 'requested' });
    }, journal);
    expect(await clock.runUntil(said('plan held: paused through a gateway: wait for it'), MINUTE)).toBe(true);
    expect(reads).not.toHaveBeenCalled();
    await clock.advance(10_000);
    expect(world.position()).toMatchObject({ x: 0.5, z: 0.5 });
    // The resume reaches the run at the watch's next look.
    await ops.resume('held');
    expect(await clock.runUntil(said('plan held on ann: succeeded'), MINUTE)).toBe(true);
    expect(reads).toHaveBeenCalled();
  });

  it('a bot fenced because the database connection failed says "the journal was unreachable", not that its worker failed', async () => {
    const refused = await connectionRefused();
    const { journal, clock, said, lines } = await fleet();
    // The database goes away: the next read of the bot's queue fails as node-postgres fails it.
    journal.claimNextPlan = () => Promise.reject(refused);
    expect(await clock.runUntil(said('fenced ann'), MINUTE)).toBe(true);
    expect(lines.find((l) => l.startsWith('fenced ann'))).toBe(
      `fenced ann (epoch 1, failed): interrupted: the journal was unreachable: ${refused.message}`,
    );
    expect(refused.message).toMatch(/^connect ECONNREFUSED /);
  });

  describe('on a real PostgreSQL', () => {
    const cluster = usePostgres();

    /**
     * The held bot walks far; `cut` takes the database from it mid-walk. The bot must be fenced with the journal named
     * unreachable, and once the database answers, its run journaled ended interrupted for that same reason: the fence
     * line's cause and the run's detail, returned.
     */
    async function fencedMidWalk(cut: (clock: ManualClock, fenced: () => boolean) => Promise<void>) {
      const journal = await openJournal(await cluster.database());
      const { clock, world, ops, said, state, lines } = await fleet(undefined, journal);
      await ops.start(walk('far', 300), { bot: 'ann' });
      expect(await withRealIo(clock, () => state() === 'EXECUTING' && world.position().x > 3)).toBe(true);
      await cut(clock, said('fenced ann'));
      expect(await withRealIo(clock, said('fenced ann'))).toBe(true);
      const fenced = lines.find((l) => l.startsWith('fenced ann'))!;
      expect(fenced).toMatch(/^fenced ann \(epoch 1, failed\): interrupted: the journal was unreachable: /);
      // The fenced holder's last write lands once the database answers again: the run ended, for the same reason.
      expect(await withRealIo(clock, said('gave up ann'))).toBe(true);
      const runs = (await journal.planProvenance('far'))!.runs;
      expect(runs).toEqual([expect.objectContaining({ epoch: 1, ok: 0, code: 'interrupted' })]);
      return { cause: fenced.split('interrupted: ')[1], detail: runs[0]!.detail };
    }

    it('stopped while the worker holds the bot mid-walk: fenced as "the journal was unreachable"; back, the walk is journaled interrupted for that reason', async () => {
      const { cause, detail } = await fencedMidWalk(async (clock, fenced) => {
        // An operator's fast shutdown; the bot must be fenced while there is no server to connect to.
        await cluster.restart(async () => {
          expect(await withRealIo(clock, fenced)).toBe(true);
        });
      });
      expect(detail).toBe(cause);
    }, 120_000);

    it("its sessions terminated by an administrator (57P01) mid-walk: the same, the terminated session's error named", async () => {
      const admin = await rawClient(cluster.url());
      try {
        const { cause, detail } = await fencedMidWalk(async (clock, fenced) => {
          // Every session of the journal's pools ended, again and again, until one ended under the bot's feet.
          for (let turns = 0; !fenced() && turns < 100; turns++) {
            await admin.query(
              "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'verbtree' AND pid <> pg_backend_pid()",
            );
            await withRealIo(clock, fenced, 1);
          }
        });
        expect(cause).toBe('the journal was unreachable: terminating connection due to administrator command');
        expect(detail).toBe(cause);
      } finally {
        await admin.end();
      }
    }, 120_000);
  });
});
