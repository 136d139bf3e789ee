import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { recheckOnReturn } from '../../src/cli/after-restart.js';
import { SystemClock } from '../../src/clock/index.js';
import type { Clock } from '../../src/contracts/clock.js';
import type { Journal } from '../../src/journal/journal.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import type { Fence } from '../../src/journal/rows.js';
import {
  prepareWorldFolder,
  startEmbeddedServer,
  type InProcessEmbeddedServer,
} from '../../src/world/embedded/index.js';
import { connectMineflayerWorld } from '../../src/world/mineflayer/connect.js';
import { Rejoining, type Session } from '../../src/world/mineflayer/rejoining-world.js';
import { parseScenario } from '../../src/world/scenario/index.js';

/*
 * A plan of bot ann's, journaled in SQLite as a worker's holder runs it on the real embedded world kept in a folder
 * and saved every SAVE_EVERY_MS; the server is crashed as a SIGKILL would kill it (`crash`) at a chosen moment of the
 * plan, and started again from the same folder on the same port in this process. The bot rejoins through the
 * library's Rejoining, whose `returning` runs the re-check as a worker's bot does (after-restart.ts).
 */

export const DIG = { x: 2, y: 5, z: 0 };
export const PLACE = { x: 0, y: 5, z: 2 };
export const SAVE_EVERY_MS = 700;
const BOT = 'ann';

export const crashPlan = {
  planId: 'p',
  intentId: 'i',
  steps: [
    { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 }, idempotencyKey: 'k-planks' },
    { stepId: 'dig', type: 'dig_block', args: { position: DIG, block: 'dirt' }, idempotencyKey: 'k-dig' },
    { stepId: 'place', type: 'place_block', args: { position: PLACE, item: 'cobblestone' }, idempotencyKey: 'k-place' },
  ],
};

const scenario = parseScenario({
  name: 'rollback-crash',
  bot: { inventory: { oak_log: 1, cobblestone: 1 } },
  blocks: [{ ...DIG, block: 'dirt' }],
});

/** When the crash comes: `delayMs` after the plan's `afterSuccesses`-th success (after its start for 0). */
export interface CrashMoment {
  afterSuccesses: number;
  delayMs: number;
}

export interface CrashRun {
  /** The server that came back, with the bot on it. */
  server: InProcessEmbeddedServer;
  close(): Promise<void>;
}

/**
 * Runs the plan with a crash at `moment`, a restart from the folder, and the bot's rejoin; resolves once the plan has
 * ended and the bot is back.
 */
export async function runWithCrash(journal: Journal, moment: CrashMoment): Promise<CrashRun> {
  const clock = new SystemClock();
  const registry = createDefaultRegistry();
  const folder = mkdtempSync(join(tmpdir(), 'verbtree-crash-'));
  prepareWorldFolder(folder, 'fresh');
  const start = (fresh: boolean, port = 0) =>
    startEmbeddedServer({ scenario, port, viewDistance: 3, storage: { folder, fresh, saveEveryMs: SAVE_EVERY_MS } });
  let server = await start(true);
  // A join tried while the server restarts may get in once it listens, before its start has resolved: its truth must
  // be the server that came back, never the crashed one (whose memory still holds what its folder lost).
  let serving = Promise.resolve(server);
  const joinServer = async (): Promise<Session> => {
    const server = await serving;
    const world = await connectMineflayerWorld({
      host: server.host,
      port: server.port,
      version: server.version,
      username: BOT,
      serverTruth: server,
    });
    return { world, close: () => world.close() };
  };
  const fence = await claimFor(journal);
  let connectedAt = clock.now();
  let rejoined!: () => void;
  const back = new Promise<void>((resolve) => (rejoined = resolve));
  const rejoining = new Rejoining(await joinServer(), {
    clock,
    join: joinServer,
    firstDelayMs: 50,
    async returning(world, restart) {
      if (!restart) return;
      const deps = { journal, clock, registry, say: () => undefined, connectedAt };
      await recheckOnReturn(world, restart, { bot: BOT, fence }, deps);
      connectedAt = clock.now();
    },
    onRejoined: () => rejoined(),
  });
  const assembly = await assembleJournaled({ registry, world: rejoining.world, clock, journal, kind: 'test', fence });
  const crashed = crashAt(moment, assembly.executor.events, clock, async () => {
    const port = server.port;
    await server.crash();
    serving = start(false, port);
    server = await serving;
    await back;
  });
  const run = await assembly.run(crashPlan, { claimed: true });
  await run.result;
  await crashed;
  await assembly.recorder.flush();
  return {
    server,
    async close() {
      await assembly.close();
      await rejoining.close();
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Calls `crash` at the moment (right away when the plan ends before it); settles once it has run. */
function crashAt(
  moment: CrashMoment,
  events: { on(name: 'event', listener: (event: { type: string; outcome?: { ok: boolean } }) => void): unknown },
  clock: Clock,
  crash: () => Promise<void>,
): Promise<void> {
  let successes = 0;
  let fired: Promise<void> | null = null;
  const fire = () => (fired ??= crash());
  return new Promise<void>((resolve, reject) => {
    const arm = () => clock.setTimeout(() => void fire().then(resolve, reject), moment.delayMs);
    if (moment.afterSuccesses === 0) arm();
    events.on('event', (event) => {
      if (event.type === 'step.ended' && event.outcome?.ok && ++successes === moment.afterSuccesses) arm();
      if (event.type === 'plan.ended') void fire().then(resolve, reject);
    });
  });
}

/** Bot ann's plan queued and claimed as a worker claims it: the fence its writes carry. */
async function claimFor(journal: Journal): Promise<Fence> {
  await journal.addBot({ name: BOT });
  await journal.enqueuePlan({ planId: crashPlan.planId, intentId: crashPlan.intentId, bot: BOT, body: crashPlan });
  const epoch = await journal.claimBot(BOT, 'w1', 600_000);
  const fence = { bot: BOT, epoch: epoch! };
  await journal.claimNextPlan(fence);
  return fence;
}
