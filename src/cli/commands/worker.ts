import { hostname } from 'node:os';
import { Command, Option } from 'commander';
import { stepClock } from '../../clock/lag-discounting-clock.js';
import { systemClock } from '../../clock/system-clock.js';
import { WorldError } from '../../contracts/world.js';
import { JournalOpenError, type Journal } from '../../journal/journal.js';
import { isPostgresUrl, maskUrl, openJournal, type OpenJournalOptions } from '../../journal/open.js';
import { WORKER_RUNNER_KIND } from '../../journal/rows.js';
import { JournalRunner } from '../../journal/runner.js';
import { RunnerInUseError } from '../../journal/sql/runners.js';
import type { CapabilityRegistry } from '../../registry/registry.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import { stopRequested } from '../running-plans.js';
import { serverVersion } from '../../world/mineflayer/connect.js';
import { versionToSpeak } from '../worlds/remote.js';
import { DEFAULT_CLAIMS_PER_PASS, FleetWorker, leaseTiming } from '../worker/fleet-worker.js';
import { JoinGate, joinAsBot } from '../worker/join.js';
import { DEFAULT_AWAY_LIMIT_MS } from '../worker/stay-joined.js';
import { reportLoopDelayOnSignal } from '../worker/loop-stats.js';
import { DEFAULT_HEADROOM, HeadroomLimits, HeadroomMonitor, processLoad } from '../worker/headroom.js';
import { registerOutageMetrics } from '../worker/outage.js';
import { createWorkerMetrics, serveMetrics, type WorkerMetrics } from '../worker/worker-metrics.js';
import { wholeIn } from '../whole-number.js';
import { recheckWindowOption } from '../after-restart.js';

interface WorkerOptions {
  journal?: string;
  host?: string;
  port: number;
  bot: string[];
  capacity?: number;
  claimsPerPass: number;
  nodeId: string;
  version: string;
  auth: 'offline' | 'microsoft';
  leaseMs: number;
  awayLimitMs: number;
  maxLoopDelayMs: number;
  maxCpu: number;
  headroomWindowMs: number;
  metricsHost: string;
  metricsPort: number;
  recheckWindowMs?: number;
}

export const DEFAULT_LEASE_MS = 15_000;
/** How long a worker whose server is away waits for a status answer before it counts the server still away. */
const PING_TIMEOUT_MS = 2_000;
/**
 * Logins one worker lets run at once (JoinGate): 150 at once all timed out (no spawn within 15 s) on this project's
 * 2-core machine, and each failed join fenced its bot and joined it again.
 */
export const JOINS_AT_ONCE = 8;
/** A bot name the server accepts in offline mode. */
const BOT_NAME = /^[A-Za-z0-9_]{1,16}$/;

const botName = (value: string, all: string[]) => {
  if (!BOT_NAME.test(value))
    throw new CliUsageError(`--bot must be a Minecraft name (1 to 16 letters, digits or _), got "${value}"`);
  return all.includes(value) ? all : [...all, value];
};

const aNumber = (flag: string) => (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new CliUsageError(`${flag} must be a number, got "${value}"`);
  return n;
};

const authMode = (value: string) => {
  if (value !== 'offline' && value !== 'microsoft')
    throw new CliUsageError(`--auth must be offline or microsoft, got "${value}"`);
  return value;
};

/** `until` is the process's own stop request (SIGINT, SIGTERM), replaced by tests. */
export function workerCommand(
  registry: () => CapabilityRegistry,
  io: CliIO,
  setExit: (code: number) => void,
  extraTreePaths: () => readonly string[] = () => [],
  until: () => Promise<string> = stopRequested,
): Command {
  return new Command('worker')
    .description(
      "Hold bots of a fleet under leases in the shared PostgreSQL journal, and run each held bot's queued plans on a Minecraft server.",
    )
    .option('--journal <url>', "the fleet's journal: a postgres:// URL every worker and gateway shares")
    .option('--host <host>', 'the Minecraft server the bots join')
    .option('--port <port>', "the Minecraft server's port", wholeIn('--port', 1, 65_535), 25565)
    .addOption(
      new Option('--bot <name>', 'a bot to add to the fleet and hold (repeatable)')
        .argParser(botName)
        .default([], 'none'),
    )
    .option(
      '--capacity <n>',
      'hold up to this many bots in all: its own, then any fleet bot whose lease is free or expired (default: the number of --bot)',
      wholeIn('--capacity', 1, 1_000),
    )
    .option(
      '--claims-per-pass <n>',
      'claim at most this many bots in one claim pass (one every fifth of the lease), so that the load of the bots just taken shows in its headroom before it takes more',
      wholeIn('--claims-per-pass', 1, 1_000),
      DEFAULT_CLAIMS_PER_PASS,
    )
    .option('--node-id <id>', "this worker's name in the fleet: its leases' holder", `${hostname()}-${process.pid}`)
    .option('--version <mc-version>', 'the Minecraft version to speak; auto asks the server', 'auto')
    .addOption(
      new Option('--auth <mode>', "offline, or microsoft: mineflayer's own login, for online-mode servers")
        .argParser(authMode)
        .default('offline'),
    )
    .option(
      '--lease-ms <ms>',
      'how long a lease lasts by the database clock; renewed every fifth of it, fenced after half of it without a renewal',
      wholeIn('--lease-ms', 500, 600_000),
      DEFAULT_LEASE_MS,
    )
    .option(
      '--away-limit-ms <ms>',
      'how long the server may stay away (bots joining again, steps waiting within their deadlines) before the worker gives its bots up, releasing their leases for a worker that can reach it',
      wholeIn('--away-limit-ms', 1_000, 86_400_000),
      DEFAULT_AWAY_LIMIT_MS,
    )
    .option(
      '--max-loop-delay-ms <ms>',
      'headroom: past this event-loop lateness (p99 over a window) the worker claims no more bots and starts no more plans',
      aNumber('--max-loop-delay-ms'),
      DEFAULT_HEADROOM.loopDelayMs,
    )
    .option(
      '--max-cpu <cores>',
      'headroom: past this share of a core used by its process (over a window) it claims no more bots and starts no more plans',
      aNumber('--max-cpu'),
      DEFAULT_HEADROOM.cpu,
    )
    .option(
      '--headroom-window-ms <ms>',
      'headroom: how long each window of measurement is',
      aNumber('--headroom-window-ms'),
      DEFAULT_HEADROOM.windowMs,
    )
    .option('--metrics-host <host>', 'where the worker serves its Prometheus metrics (GET /metrics)', '127.0.0.1')
    .option(
      '--metrics-port <port>',
      'the port of its Prometheus metrics; 0 picks a free one, printed at start',
      wholeIn('--metrics-port', 0, 65_535),
      0,
    )
    .addOption(recheckWindowOption())
    .addHelpText(
      'after',
      `
Bots belong to the fleet, not to a worker: a bot whose worker dies is taken, once its lease lapses, by a worker with
spare --capacity, which resumes its plan after checking against the live world what the dead worker had done. Plans
reach a bot through its queue in the journal (a gateway: verbtree serve --journal postgres://… --world none).
A worker whose lease renewals stop coming back fences itself: it cancels its steps, journals them interrupted and
leaves the server before another worker may take its bots. SIGINT or SIGTERM gives its bots back the same way.
When the server goes away (a crash, a restart), the worker keeps its leases and its bots join again with backoff;
their steps wait for them within their deadlines. Past --away-limit-ms it gives them up the same way and claims no
bot until the server answers again, so that a worker that can reach the server takes them.
A server that restarted may have rolled its world back to its last save: each bot back on it checks its successes
that may not have been saved against the world (the embedded world says when it saved; otherwise those since the bot
last connected, or --recheck-window-ms, and its plans under way). One whose effect is gone is journaled retracted,
its idempotency key released, and a running plan redoes it.

Examples:
  $ verbtree worker --journal postgres://verbtree@db/verbtree --host mc.example.org --bot ann --bot bob
  $ verbtree worker --journal postgres://verbtree@db/verbtree --host 10.0.0.5 --port 25570 --capacity 20 --node-id rack2`,
    )
    .action(async (options: WorkerOptions) => {
      const settings = checked(options);
      setExit(await runWorker(settings, { registry: registry(), extraTreePaths: extraTreePaths(), io, until }));
    });
}

interface WorkerSettings extends WorkerOptions {
  journal: string;
  host: string;
  capacity: number;
  headroom: HeadroomLimits;
}

const HEADROOM_FLAGS: Record<keyof HeadroomLimits, string> = {
  loopDelayMs: '--max-loop-delay-ms',
  cpu: '--max-cpu',
  windowMs: '--headroom-window-ms',
};

/** The headroom flags, checked by the same schema as a project's `worker.headroom`; a bad one is named with its bounds. */
function headroomOf(options: WorkerOptions): HeadroomLimits {
  const parsed = HeadroomLimits.safeParse({
    loopDelayMs: options.maxLoopDelayMs,
    cpu: options.maxCpu,
    windowMs: options.headroomWindowMs,
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const flag = HEADROOM_FLAGS[issue.path[0] as keyof HeadroomLimits];
  throw new CliUsageError(`${flag}: ${issue.message}`);
}

function checked(options: WorkerOptions): WorkerSettings {
  if (!options.journal)
    throw new CliUsageError('worker needs --journal postgres://…: the journal every worker of the fleet shares');
  if (!isPostgresUrl(options.journal))
    throw new CliUsageError(
      `--journal must be a postgres:// URL for a worker (the fleet's workers share one PostgreSQL journal), got "${options.journal}"`,
    );
  if (!options.host) throw new CliUsageError('worker needs --host: the Minecraft server its bots join');
  if (options.bot.length === 0 && options.capacity === undefined)
    throw new CliUsageError('worker needs bots to hold: give --bot <name> (repeatable), --capacity <n>, or both');
  const capacity = options.capacity ?? options.bot.length;
  if (capacity < options.bot.length)
    throw new CliUsageError(
      `--capacity ${capacity} is fewer than the ${options.bot.length} bots given with --bot; raise --capacity or give fewer --bot`,
    );
  if (options.nodeId.trim() === '') throw new CliUsageError('--node-id must not be empty');
  return { ...options, journal: options.journal, host: options.host, capacity, headroom: headroomOf(options) };
}

async function runWorker(
  settings: WorkerSettings,
  context: { registry: CapabilityRegistry; extraTreePaths: readonly string[]; io: CliIO; until: () => Promise<string> },
): Promise<number> {
  const { io } = context;
  const say = (line: string) => io.out(`${new Date().toISOString()} ${line}`);
  const timing = leaseTiming(settings.leaseMs);
  const version = await versionToSpeak(settings.host, settings.port, settings.version).catch((error: unknown) => {
    if (error instanceof WorldError) throw new CliUsageError(error.message);
    throw error;
  });
  // The journal opens before the metrics that hear its transactions exist.
  let metrics: WorkerMetrics | undefined;
  const journal = await openFleetJournal(settings.journal, {
    queryTimeoutMs: timing.renewEveryMs * 2,
    // The whole lease, not the fence's share of it: cut off, its locks go about when its lease has expired (no claim
    // takes the bot sooner); busy, its loop late by seconds between two statements of a transaction does not end it (the
    // crowd of 150 on three workers, loops 3 to 4.7 s late: 16 bots fenced 'failed', their worker's session ended for
    // 'idle-in-transaction timeout' at 7.5 s).
    idleInTransactionTimeoutMs: timing.ttlMs,
    poolSize: journalPoolSize(settings.capacity),
    observe: (t) => metrics?.observeJournal(t),
  });
  try {
    const runner = new JournalRunner(journal, {
      kind: WORKER_RUNNER_KIND,
      clock: systemClock,
      node: { id: settings.nodeId, takeOverSilentAfterMs: settings.leaseMs },
    });
    await runner.start().catch((error: unknown) => {
      if (error instanceof RunnerInUseError)
        throw new CliUsageError(`--node-id ${error.message}: give this worker another --node-id`);
      throw error;
    });
    const choice = {
      world: 'remote' as const,
      seed: 1,
      host: settings.host,
      port: settings.port,
      version,
      auth: settings.auth,
    };
    const gate = new JoinGate(JOINS_AT_ONCE);
    const load = processLoad();
    const headroom = new HeadroomMonitor(systemClock, settings.headroom, load);
    const worker = new FleetWorker(
      {
        journal,
        registry: context.registry,
        extraTreePaths: context.extraTreePaths,
        runner,
        clock: systemClock,
        say,
        join: (bot, cancel, waiting) =>
          joinAsBot(choice, bot, {
            clock: systemClock,
            retryEveryMs: timing.claimEveryMs,
            cancel,
            gate,
            say,
            ...(waiting ? { waiting } : {}),
          }),
        pollEveryMs: timing.claimEveryMs,
        graceMs: Math.round(timing.ttlMs / 5),
        awayLimitMs: settings.awayLimitMs,
        ...(settings.recheckWindowMs === undefined ? {} : { recheckWindowMs: settings.recheckWindowMs }),
        reachable: () =>
          serverVersion(settings.host, settings.port, PING_TIMEOUT_MS).then(
            (answer) => answer !== null,
            () => false,
          ),
        headroom,
      },
      {
        nodeId: settings.nodeId,
        bots: settings.bot,
        capacity: settings.capacity,
        claimsPerPass: settings.claimsPerPass,
        timing,
      },
    );
    say(
      `worker ${settings.nodeId}: journal ${maskUrl(settings.journal)}, server ${settings.host}:${settings.port} (Minecraft ${version}, ${settings.auth}), capacity ${settings.capacity}, lease ${settings.leaseMs} ms, headroom below ${settings.headroom.loopDelayMs} ms of loop delay and ${settings.headroom.cpu} of a core`,
    );
    metrics = createWorkerMetrics({
      worker,
      headroom,
      capacity: settings.capacity,
      fencedWritesRefused: () => journal.fencedWritesRefused,
      stolenMs: () => stepClock.stolenMs(),
    });
    registerOutageMetrics(metrics.registry, () => worker.outage());
    const served = await serveMetrics(metrics.registry, settings.metricsHost, settings.metricsPort).catch(
      (error: unknown) => {
        throw new CliUsageError(
          `--metrics-port ${settings.metricsPort}: cannot serve metrics on ${settings.metricsHost}: ${String(error)}; give another --metrics-port (0 picks a free one)`,
        );
      },
    );
    say(`metrics on ${served.url}`);
    const stopLoopStats = reportLoopDelayOnSignal((line) => io.out(line));
    headroom.start();
    await worker.start();
    const signal = await context.until();
    stopLoopStats();
    headroom.stop();
    load.stop();
    served.server.closeAllConnections();
    served.server.close();
    say(`${signal}: giving the bots back`);
    await worker.stop({ code: 'interrupted', reason: `its worker ${settings.nodeId} was stopped (${signal})` });
    await runner.stop().catch(() => undefined);
    say(`stale writes refused: ${journal.fencedWritesRefused} (writes under a lease this worker had lost or given up)`);
    return EXIT.ok;
  } finally {
    await journal.close();
  }
}

/**
 * How many connections a worker's journal pool may open for its bots' writes (its leases have 3 of their own): 0.4 a
 * bot, from 10 up to 30. Each bot's step writes a few short transactions, each of several round trips on a busy event
 * loop; with the default 10 for 75 bots they queued for a connection past its 10 s limit (`npm run bench -- fleet
 * --bots 150 --workers 2`: 38 bots fenced "timeout exceeded when trying to connect", 0 of 150 plans done in 30 s;
 * with 30, none fenced and 95 done). At the cap a worker takes 33 connections: three such workers and a gateway need
 * more than PostgreSQL's default max_connections of 100 (docs/fleet.md, "A fleet on two machines").
 */
export function journalPoolSize(capacity: number): number {
  return Math.min(30, Math.max(10, Math.ceil(capacity * 0.4)));
}

/**
 * The fleet's journal: a statement with no answer in `queryTimeoutMs` fails rather than waiting for TCP, and the
 * server ends a transaction of this worker's left idle for `idleInTransactionTimeoutMs` (a worker cut off
 * mid-transaction would hold its row locks, and stall its bots' next holder, until the network heals).
 */
async function openFleetJournal(
  url: string,
  timeouts: Pick<OpenJournalOptions, 'queryTimeoutMs' | 'idleInTransactionTimeoutMs' | 'poolSize' | 'observe'>,
): Promise<Journal> {
  try {
    return await openJournal(url, timeouts);
  } catch (error) {
    if (error instanceof JournalOpenError) throw new CliUsageError(error.message);
    throw error;
  }
}
