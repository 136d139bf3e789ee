import type { Clock } from '../../contracts/clock.js';
import type { RunInput } from '../../executor/executor.js';
import type { HealthConfigInput } from '../../journal/health-config.js';
import { assembleJournaled, type JournaledAssembly } from '../../journal/journaled-executor.js';
import { LeaseLostError, type Journal } from '../../journal/journal.js';
import { remainingToRun } from '../../journal/resume.js';
import type { BotReport, Fence, QueuedPlan } from '../../journal/rows.js';
import type { Interruption } from '../../journal/sql/fleet.js';
import { journalUnreachable } from '../../journal/unreachable.js';
import type { JournalRunner } from '../../journal/runner.js';
import type { CapabilityRegistry } from '../../registry/registry.js';
import type { OpenedWorld } from '../open-world.js';
import { guardedWorld } from './guarded-world.js';
import { watchPlanControl } from './plan-control-watch.js';
import { DEFAULT_AWAY_LIMIT_MS, stayJoined } from './stay-joined.js';
import { BotPresence } from './presence.js';
import { settleWithin, sleep } from './timing.js';
import { recheckOnReturn } from '../after-restart.js';
import type { WorldPort } from '../../contracts/world.js';
import type { Restart } from '../../world/server-mark.js';

/** What every bot a worker holds shares: the journal, the registry, the worker's runner and how it joins the server. */
export interface HeldBotDeps {
  journal: Journal;
  registry: CapabilityRegistry;
  extraTreePaths: readonly string[];
  runner: JournalRunner;
  clock: Clock;
  say: (line: string) => void;
  /** Joins the server as the bot (retrying while the server still holds an old session), until `cancel` aborts. */
  /** Joins the server as the bot; `waiting` is told the bot's status while its server is away before it joins. */
  join: (bot: string, cancel: AbortSignal, waiting?: (status: string | null) => void) => Promise<OpenedWorld>;
  /** How long a fenced bot waits between tries of its last write, and how often a running plan's row is read for an operator's pause or cancel. */
  pollEveryMs: number;
  /** Waits until the bot may have a plan queued (its worker asks for every bot it holds at once), or `cancel` aborts. */
  planQueued: (bot: string, cancel: AbortSignal) => Promise<void>;
  /**
   * Waits until its worker has headroom to start a plan (at once while it has), or `cancel` aborts; `done` says the
   * plan, or the look at the queue, is over.
   */
  admit?: (bot: string, cancel: AbortSignal) => Promise<{ done(): void }>;
  /** How long a fence waits for a cancelled step to end before it journals the plan interrupted anyway. */
  graceMs: number;
  /**
   * How long the server may stay away (the bot joining again meanwhile, its steps waiting) before the bot is given
   * up: its plan journaled interrupted and its lease released for a worker that can reach the server (default
   * DEFAULT_AWAY_LIMIT_MS).
   */
  awayLimitMs?: number;
  /** Told when a bot gives itself up because its server stayed away past `awayLimitMs`. */
  serverAway?: (bot: string, awayMs: number) => void;
  /** How far back a restart's re-check reaches when the server does not say when it saved (default: since the bot last connected). */
  recheckWindowMs?: number;
  health?: HealthConfigInput;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Why a bot was fenced, counted apart in a worker's metrics: its lease was not renewed (`lease_lost`), no renewal came
 * back in time (`renewal_late`), it was given up on purpose (`released`: a stop, its server away too long, its worker
 * done with it), or its work failed (`failed`).
 */
export type FenceCause = 'lease_lost' | 'renewal_late' | 'released' | 'failed';

/**
 * One bot a worker holds under one lease epoch: it joins the server as the bot, then runs the bot's queued plans one
 * at a time in order, resuming a plan a previous holder left unfinished through the live-world check. `fence` ends
 * it for good: this epoch writes nothing more (the journal refuses it), the running step is cancelled and its actuators
 * refused, the bot leaves the server, and the plan is journaled interrupted for the bot's next holder. A worker that
 * holds the bot again does so under a new epoch, as a new HeldBot.
 */
export class HeldBot {
  private readonly cancel = new AbortController();
  /** Aborted when the worker stops: a fence no longer waits for the database to answer its last write. */
  private readonly stopping = new AbortController();
  private why: Interruption | null = null;
  private cause: FenceCause | null = null;
  private fencing: Promise<void> | null = null;
  private opened: OpenedWorld | null = null;
  /** Where it stands with its server: waiting for it, on it, or away from it since when. */
  private readonly presence: BotPresence;
  private assembly: JournaledAssembly | null = null;
  /** The plan under way (between its claim and its end), and its run's end once it is running. */
  private current: { planId: string; ended: Promise<unknown>; redo: AbortController } | null = null;
  /** When the bot last joined the server (the clock's ms): a restart's re-check window starts there by default. */
  private connectedAt = 0;
  /** Settles when the bot is given up: fenced, disconnected, its plan journaled. */
  readonly done: Promise<void>;

  constructor(
    readonly fence: Fence,
    readonly holder: string,
    private readonly deps: HeldBotDeps,
  ) {
    this.presence = new BotPresence(fence, {
      clock: deps.clock,
      awayLimitMs: deps.awayLimitMs ?? DEFAULT_AWAY_LIMIT_MS,
      tooLong: (awayMs) => this.serverAwayTooLong(awayMs),
    });
    this.done = this.work().then(
      () => this.fenceFor({ code: 'interrupted', reason: 'its worker stopped holding it' }),
      (error: unknown) => this.fenceFor({ code: 'interrupted', reason: this.failure(error) }, 'failed'),
    );
  }

  /**
   * Why the bot's work ended, as it is: once on the server, a connection to the database that failed is the journal
   * being unreachable (the worker lives on and holds the bot again when it is back), not the worker failing; before
   * that, the same socket error would be the game server's.
   */
  private failure(error: unknown): string {
    const unreachable = this.opened ? journalUnreachable(error) : null;
    return unreachable === null
      ? `its worker failed: ${message(error)}`
      : `the journal was unreachable: ${unreachable}`;
  }

  get fenced(): boolean {
    return this.why !== null;
  }

  /** Why it was fenced; null while it is not. */
  get fenceCause(): FenceCause | null {
    return this.cause;
  }

  /** Fences the bot (if it is not yet) as its worker stops: the fence's last write is then tried once more at most. */
  stop(why: Interruption): Promise<void> {
    this.stopping.abort();
    return this.fenceFor(why);
  }

  /**
   * What the bot is doing now, under its epoch, for the fleet's listing (GET /api/bots on any gateway); null until it
   * is on the server with its executor, and once it is fenced (a fenced holder reports nothing).
   */
  report(): BotReport | null {
    if (this.fenced) return null;
    // Off the server, it says since when, and nothing of where it stood: that was the dead session's view.
    if (!this.opened) return this.presence.awayReport('mineflayer');
    if (!this.assembly) return null;
    const { world } = this.opened;
    const away = this.presence.awayReport(world.kind);
    if (away) return away;
    const at = world.position();
    return {
      bot: this.fence.bot,
      epoch: this.fence.epoch,
      connected: world.isConnected(),
      state: this.assembly.executor.state(),
      kind: world.kind,
      position: { x: at.x, y: at.y, z: at.z },
      health: world.health(),
      food: world.food(),
    };
  }

  /** Since when (epoch ms) the bot is away from the server, a first join waiting included; null while it is on it. */
  disconnectedSince(): number | null {
    return this.presence.disconnectedSince();
  }

  /**
   * Gives the bot up (idempotent): first the journal refuses this epoch's writes and the actuators refuse commands,
   * then the bot leaves the server, then the plan under way is journaled interrupted (a fenced holder's last write,
   * which the database still refuses if the lease has moved on), and the lease is released for the next holder.
   */
  fenceFor(why: Interruption, cause: FenceCause = 'released'): Promise<void> {
    if (this.fencing) return this.fencing;
    this.why = why;
    this.cause = cause;
    this.deps.journal.revokeFence(this.fence);
    this.presence.end();
    this.cancel.abort(new Error(`${why.code}: ${why.reason}`));
    this.deps.say(`fenced ${this.fence.bot} (epoch ${this.fence.epoch}, ${cause}): ${why.code}: ${why.reason}`);
    this.fencing = this.giveUp(why);
    return this.fencing;
  }

  private async giveUp(why: Interruption): Promise<void> {
    const { journal, graceMs, clock } = this.deps;
    const leaving = settleWithin(clock, this.opened?.close(), graceMs);
    if (this.current) {
      await settleWithin(clock, this.current.ended, graceMs);
      await this.journalInterrupted(this.current.planId, why);
    }
    await settleWithin(clock, this.assembly?.close(), graceMs);
    await leaving;
    await journal.releaseBot({ ...this.fence, holder: this.holder }).catch(() => false);
    this.deps.say(
      `gave up ${this.fence.bot} (epoch ${this.fence.epoch}): it left the server and its lease is released or lapsing`,
    );
  }

  /**
   * The fenced holder's last write, tried until the database answers it (journaled, or refused and counted because the
   * lease moved on) or the worker stops. A try lost on a cut network is tried again, not dropped: once the network
   * heals, the database itself tells this worker it no longer holds the bot, whatever the pool's timeouts did before.
   */
  private async journalInterrupted(planId: string, why: Interruption): Promise<void> {
    const { journal, clock, pollEveryMs, say } = this.deps;
    for (let tries = 1; ; tries++) {
      try {
        await journal.interruptPlan(planId, why, this.fence);
        return;
      } catch (error) {
        // Refused by the database (the lease moved on), or the worker is stopping: no try after this one.
        const last = error instanceof LeaseLostError || this.stopping.signal.aborted;
        if (last || tries === 1)
          say(
            `${this.fence.bot}: could not journal plan ${planId} interrupted: ${message(error)}${last ? '' : '; trying again until the database answers'}`,
          );
        if (last) return;
        await sleep(clock, pollEveryMs, this.stopping.signal);
      }
    }
  }

  private async work(): Promise<void> {
    const { deps, fence } = this;
    const joined = await deps.join(fence.bot, this.cancel.signal, (status) => this.presence.waiting(status));
    // A fence that came while the bot was joining found nothing to close.
    if (this.fenced) return joined.close();
    this.connectedAt = deps.clock.now();
    const { opened, rejoining } = stayJoined(joined, fence.bot, this.cancel.signal, {
      ...deps,
      awayLimitMs: deps.awayLimitMs ?? DEFAULT_AWAY_LIMIT_MS,
      tooLong: (awayMs) => this.serverAwayTooLong(awayMs),
      returning: (world, restart) => this.returning(world, restart),
    });
    this.opened = opened;
    this.presence.joined(rejoining);
    const assembly = await assembleJournaled({
      registry: deps.registry,
      extraTreePaths: deps.extraTreePaths,
      world: guardedWorld(opened.world, () => (this.why ? `${this.why.code}: ${this.why.reason}` : null)),
      clock: opened.clock,
      journal: deps.journal,
      kind: 'worker',
      runner: deps.runner,
      fence,
      policy: { seed: opened.descriptor.seed, protect: opened.protect ?? [] },
      worldDescriptor: opened.descriptor,
      ...(deps.health ? { health: deps.health } : {}),
    });
    if (this.fenced) return assembly.close();
    this.assembly = assembly;
    deps.say(`holding ${fence.bot} (epoch ${fence.epoch}) on ${opened.describe}`);
    while (!this.fenced) {
      const admitted = await deps.admit?.(fence.bot, this.cancel.signal);
      try {
        if (this.fenced) break;
        const next = await deps.journal.claimNextPlan(fence);
        if (next) await this.runPlan(next, assembly);
        else {
          admitted?.done();
          await deps.planQueued(fence.bot, this.cancel.signal);
        }
      } finally {
        admitted?.done();
      }
    }
  }

  /**
   * The server stayed away past the limit: the bot is given up like a fenced one (its plan journaled interrupted, its
   * lease released), so that a worker that can reach the server takes it and resumes the plan.
   */
  private serverAwayTooLong(awayMs: number): void {
    const { awayLimitMs = DEFAULT_AWAY_LIMIT_MS, say } = this.deps;
    say(
      `${this.fence.bot}: SERVER UNREACHABLE for ${awayMs} ms (limit ${awayLimitMs} ms): giving the bot up for a worker that can reach it`,
    );
    this.deps.serverAway?.(this.fence.bot, awayMs);
    void this.fenceFor({
      code: 'interrupted',
      reason: `its server was unreachable for ${awayMs} ms, past its worker's limit of ${awayLimitMs} ms`,
    });
  }

  /**
   * The bot is back on the server, its steps still waiting: after a restart, the successes it may have rolled back are
   * checked against the world that came back, and a running plan with a step found gone is stopped, to be resumed
   * (the step redone, what holds not). `connectedAt` moves to now either way.
   */
  private async returning(world: WorldPort, restart: Restart | null): Promise<void> {
    const { clock, recheckWindowMs } = this.deps;
    const connectedAt = this.connectedAt;
    this.connectedAt = clock.now();
    if (!restart || this.fenced) return;
    const verdicts = await recheckOnReturn(
      world,
      restart,
      { bot: this.fence.bot, fence: this.fence },
      {
        ...this.deps,
        connectedAt,
        ...(recheckWindowMs === undefined ? {} : { recheckWindowMs }),
      },
    );
    const current = this.current;
    if (current && verdicts?.retracted.some((r) => r.planId === current.planId))
      current.redo.abort(new Error('the server restarted and undid a step of the plan: it is resumed to redo it'));
  }

  /** Runs one claimed plan to its end; a resumed one first has its interrupted steps checked in the live world. */
  private async runPlan(next: QueuedPlan, assembly: JournaledAssembly): Promise<void> {
    const { say } = this.deps;
    const { planId } = next;
    let ended!: (value?: unknown) => void;
    const redo = new AbortController();
    this.current = { planId, ended: new Promise((resolve) => (ended = resolve)), redo };
    let failed = false;
    try {
      const plan = next.resume ? await this.resumable(planId, assembly) : (next.body as RunInput);
      if (!plan || (await this.cancelledBeforeStart(next))) return;
      say(`plan ${planId} on ${this.fence.bot}: ${next.resume ? 'resumed' : 'started'}`);
      const run = await assembly.run(plan, {
        ...(next.resume ? { resumed: true } : { claimed: true }),
        signal: AbortSignal.any([this.cancel.signal, redo.signal]),
      });
      const runEnded = new AbortController();
      const { journal, clock, pollEveryMs } = this.deps;
      const watch = watchPlanControl(
        { journal, clock, everyMs: pollEveryMs, say },
        planId,
        run,
        AbortSignal.any([runEnded.signal, this.cancel.signal]),
        next.control,
      );
      const result = await run.result.finally(() => runEnded.abort());
      await watch;
      // The plan's end must be durable before its queue is read again, or the plan would still read as running.
      await assembly.recorder.flush();
      if (this.fenced) return;
      if (redo.signal.aborted) return await this.toRedo(planId);
      say(
        `plan ${planId} on ${this.fence.bot}: ${result.ok ? 'succeeded' : `failed ${result.code}: ${result.detail ?? ''}`}`,
      );
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      ended();
      // A plan whose run failed stays the one under way: the failure fences the bot (after this), and the fence
      // journals that plan interrupted, saying why (the journal unreachable mid-step, say).
      if (!this.fenced && !failed) this.current = null;
    }
  }

  /** A plan stopped for a step a restart undid is journaled interrupted: the bot's next claim resumes it. */
  private async toRedo(planId: string): Promise<void> {
    await this.deps.journal.setPlanStatus(planId, 'interrupted', this.fence);
    this.deps.say(`plan ${planId} on ${this.fence.bot}: stopped to redo what the server's restart undid; resuming it`);
  }

  /**
   * A plan an operator cancelled through a gateway after a worker took it (a resumed one, or one claimed just then)
   * ends here, cancelled, without running: its claim read the cancel. One asked later reaches the run through its
   * control watch.
   */
  private async cancelledBeforeStart({ planId, control: asked }: QueuedPlan): Promise<boolean> {
    if (asked.control !== 'cancel') return false;
    await this.deps.journal.setPlanStatus(planId, 'cancelled', this.fence);
    this.deps.say(
      `plan ${planId} on ${this.fence.bot}: cancelled before it started: ${asked.reason ?? 'by the operator'}`,
    );
    return true;
  }

  /**
   * A plan a previous holder left unfinished: what it had in progress is ended (it can no longer write: this epoch
   * holds the bot), then its interrupted steps whose journaled expectations hold in the live world are succeeded, and
   * the rest is what runs. null when nothing is left to run (the plan is journaled succeeded, or failed when it cannot
   * be resumed).
   */
  private async resumable(planId: string, assembly: JournaledAssembly): Promise<RunInput | null> {
    const { journal, say, registry } = this.deps;
    const { fence } = this;
    const remaining = await remainingToRun(journal, planId, {
      registry,
      world: assembly.world,
      interruption: { code: 'interrupted', reason: `its bot was taken over by ${this.holder} (epoch ${fence.epoch})` },
      say: (line) => say(`plan ${planId} on ${fence.bot}: ${line}`),
      fence,
    });
    return 'plan' in remaining ? remaining.plan : null;
  }
}
