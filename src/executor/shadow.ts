import type { Clock } from '../contracts/clock.js';
import type { WorldPort } from '../contracts/world.js';
import type { VersionRun } from '../registry/canary-sla.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import type { ExecutorEvent } from './events.js';
import type { Executor } from './executor.js';

/** What a shadow run asks of a fork; the shape of foresight's ForkJob, which the executor does not import. */
export interface ShadowJob {
  verb: string;
  args: Record<string, unknown>;
  simBudgetMs: number;
  version: string;
  capabilityModules?: string[];
  treePaths?: string[];
}

/** What a fork answers (foresight's ForkOutcome, as far as an SLA reads it). */
export interface ShadowOutcome {
  outcome: string;
  code?: string;
  damage: number;
  simulatedMs: number;
  ttfaMs?: number | null;
}

export interface ShadowOptions<View> {
  registry: CapabilityRegistry;
  /** The world the stable version acts in; shadow runs only read it, through `capture`. */
  world: WorldPort;
  clock: Clock;
  /** Copies what the bot sees now (foresight's captureView with its bounds); its block reads happen on the call. */
  capture(world: WorldPort): Promise<View>;
  /** Runs the canary's step on a fork of the view, off the main loop (foresight's runInFork on a ForkPool). */
  runFork(view: View, job: ShadowJob): Promise<ShadowOutcome>;
  /** Keeps each run (the stable version's real ones and the canary's shadow ones), e.g. in the journal. */
  record(run: VersionRun): void | Promise<void>;
  /** Shadow runs at once; a step that comes while they run has none (counted in `skipped`). Default 1. */
  maxInFlight?: number;
  /** The project's capability modules and tree folders, so a fork holds the same capabilities. */
  capabilityModules?: string[];
  treePaths?: string[];
}

interface WatchedStep {
  version: string;
  args: Record<string, unknown>;
  simBudgetMs: number;
  health: number;
  shadowed: boolean;
}

/**
 * Shadow runs of canaries, attached to an executor from outside as an observer. For a verb with a canary, when the
 * stable version's step makes its first actuator command (its TTFA already taken), the view is captured and the
 * canary runs the same step, with the same arguments, on a fork of that moment; its outcome is only recorded, never
 * acted on. Every real step of such a verb is recorded too, for the stable version's SLA.
 */
export class ShadowRuns<View> {
  /** Shadow runs started, skipped (too many in flight), and failed to run or record (an error, not a verdict). */
  started = 0;
  skipped = 0;
  errors: unknown[] = [];
  private readonly steps = new Map<string, WatchedStep>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly watched: Set<string>;
  private readonly listener = (event: ExecutorEvent) => this.onEvent(event);

  constructor(
    private readonly executor: Pick<Executor, 'events'>,
    private readonly options: ShadowOptions<View>,
  ) {
    this.watched = new Set(options.registry.canaries().map((canary) => canary.verb));
    executor.events.on('event', this.listener);
  }

  /** Stops watching; runs in flight still end and are recorded (await `idle()`). */
  detach(): void {
    this.executor.events.off('event', this.listener);
  }

  /** Resolves once every shadow run started so far has ended and been recorded. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private onEvent(event: ExecutorEvent): void {
    if (event.type !== 'step.started' && event.type !== 'step.firstAction' && event.type !== 'step.ended') return;
    if (!this.watched.has(event.verb)) return;
    const key = `${event.planId}\u0000${event.stepId}`;
    if (event.type === 'step.started') {
      this.steps.set(key, {
        version: event.version,
        args: event.args as Record<string, unknown>,
        simBudgetMs: Math.max(1, event.deadlineAt - event.at),
        health: this.options.world.health(),
        shadowed: false,
      });
    } else if (event.type === 'step.firstAction') {
      const step = this.steps.get(key);
      if (step && !step.shadowed) {
        step.shadowed = true;
        this.shadow(event.verb, step);
      }
    } else if (event.type === 'step.ended') {
      const step = this.steps.get(key);
      if (!step) return;
      this.steps.delete(key);
      if (event.outcome.ok && event.outcome.deduplicated) return;
      this.keep({
        verb: event.verb,
        version: step.version,
        shadow: false,
        ok: event.outcome.ok,
        code: event.outcome.ok ? null : event.outcome.code,
        ttfaMs: event.ttfaMs,
        durationMs: event.durationMs,
        damage: Math.max(0, step.health - this.options.world.health()),
      });
    }
  }

  private shadow(verb: string, step: WatchedStep): void {
    const canary = this.options.registry.canaryOf(verb);
    if (!canary) return;
    if (this.inFlight.size >= (this.options.maxInFlight ?? 1)) {
      this.skipped++;
      return;
    }
    this.started++;
    const { capabilityModules, treePaths } = this.options;
    const job: ShadowJob = {
      verb,
      args: step.args,
      simBudgetMs: step.simBudgetMs,
      version: canary.version,
      ...(capabilityModules ? { capabilityModules } : {}),
      ...(treePaths ? { treePaths } : {}),
    };
    const run = this.options
      .capture(this.options.world)
      .then((view) => this.options.runFork(view, job))
      .then((outcome) =>
        this.keep({
          verb,
          version: canary.version,
          shadow: true,
          ok: outcome.outcome === 'ok',
          code: outcome.outcome === 'ok' ? null : (outcome.code ?? outcome.outcome),
          ttfaMs: outcome.ttfaMs ?? null,
          durationMs: outcome.simulatedMs,
          damage: outcome.damage,
        }),
      )
      .catch((error: unknown) => void this.errors.push(error))
      .finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private keep(run: Omit<VersionRun, 'worldKind' | 'at'>): void {
    const done = (async () => {
      await this.options.record({ ...run, worldKind: this.options.world.kind, at: this.options.clock.now() });
    })()
      .catch((error: unknown) => void this.errors.push(error))
      .finally(() => this.inFlight.delete(done));
    this.inFlight.add(done);
  }
}
