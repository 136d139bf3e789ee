import { monitorEventLoopDelay } from 'node:perf_hooks';
import { z } from 'zod';
import type { Clock, TimerHandle } from '../../contracts/clock.js';

/**
 * How much load a worker takes before it refuses more (issue 34): past either limit it claims no further bot and
 * starts no further plan, so that another worker takes the bot or the plan waits. Both limits are "below": a limit of
 * 0 is never met, so the worker holds one bot and runs one plan at a time.
 */
const loopDelayMs = z
  .number()
  .min(0)
  .max(60_000)
  .describe(
    "the event loop's lateness (ms, p99 over the last window, past the sampler's own resolution) it stays below",
  );
const cpu = z
  .number()
  .min(0)
  .max(64)
  .describe('the share of one core its process used over the last window it stays below');
const windowMs = z.int().min(100).max(60_000).describe('how long each window of measurement is (ms)');

export const DEFAULT_HEADROOM = { loopDelayMs: 500, cpu: 0.9, windowMs: 1_000 } as const;

export const HeadroomLimits = z.strictObject({
  loopDelayMs: loopDelayMs.default(DEFAULT_HEADROOM.loopDelayMs),
  cpu: cpu.default(DEFAULT_HEADROOM.cpu),
  windowMs: windowMs.default(DEFAULT_HEADROOM.windowMs),
});
/** The same limits in a project's config (`worker.headroom`), each optional: the command line's flags still win. */
export const HeadroomConfig = z.strictObject({
  loopDelayMs: loopDelayMs.optional(),
  cpu: cpu.optional(),
  windowMs: windowMs.optional(),
});
export type HeadroomLimits = z.infer<typeof HeadroomLimits>;

/** What a worker measured of its own process over its last window. */
export interface LoadSample {
  loopDelayMs: number;
  cpu: number;
}

export type Headroom = { room: true } | { room: false; reason: string };

/**
 * The rule: room while both measures are below their limits. Nothing measured yet is no room: a worker starting
 * takes one bot and one plan, not its whole capacity at once, before its first window says what they cost.
 */
export function headroomOf(sample: LoadSample | null, limits: Pick<HeadroomLimits, 'loopDelayMs' | 'cpu'>): Headroom {
  if (sample === null) return { room: false, reason: 'its load is not measured yet' };
  if (sample.loopDelayMs >= limits.loopDelayMs)
    return {
      room: false,
      reason: `its event loop runs ${Math.round(sample.loopDelayMs)} ms late (limit ${limits.loopDelayMs} ms)`,
    };
  if (sample.cpu >= limits.cpu)
    return {
      room: false,
      reason: `its process used ${sample.cpu.toFixed(2)} of a core (limit ${limits.cpu})`,
    };
  return { room: true };
}

/**
 * Whether a worker takes one more (bot or plan) with `underWay` of that kind already on its hands: while it has room,
 * or when it has none under way at all, so that a loaded machine slows a worker down to one at a time but never stops it.
 */
export function admits(headroom: Headroom, underWay: number): boolean {
  return headroom.room || underWay === 0;
}

/** Where a worker's load is read: its event-loop lateness since the last read, and its process's CPU time. */
export interface LoadSources {
  /** The p99 lateness (ms) since the previous call; each call starts a new window. */
  loopDelayMs(): number;
  /** The CPU time (user and system, in ms) the process used since it started. */
  cpuMs(): number;
}

const SAMPLER_RESOLUTION_MS = 10;

/** This process's load, from perf_hooks' event-loop delay histogram and process.cpuUsage. */
export function processLoad(): LoadSources & { stop(): void } {
  const delay = monitorEventLoopDelay({ resolution: SAMPLER_RESOLUTION_MS });
  delay.enable();
  return {
    loopDelayMs() {
      // The histogram counts the sampler's own interval in each delay: lateness is what lies past it.
      const p99 = delay.count === 0 ? 0 : delay.percentile(99) / 1e6 - SAMPLER_RESOLUTION_MS;
      delay.reset();
      return Math.max(0, p99);
    },
    cpuMs() {
      const used = process.cpuUsage();
      return (used.user + used.system) / 1_000;
    },
    stop: () => delay.disable(),
  };
}

/**
 * A worker's headroom, measured every `windowMs` on the clock: the loop's lateness over the window and the CPU its
 * process used in it, judged by `headroomOf`.
 */
export class HeadroomMonitor {
  private sample: LoadSample | null = null;
  private timer: TimerHandle | null = null;
  private lastAt = 0;
  private lastCpuMs = 0;

  constructor(
    private readonly clock: Clock,
    readonly limits: HeadroomLimits,
    private readonly sources: LoadSources,
  ) {}

  start(): void {
    this.lastAt = this.clock.now();
    this.lastCpuMs = this.sources.cpuMs();
    this.sources.loopDelayMs();
    this.schedule();
  }

  stop(): void {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** The last window's measures; null before the first window ends. */
  get last(): LoadSample | null {
    return this.sample;
  }

  headroom(): Headroom {
    return headroomOf(this.sample, this.limits);
  }

  private schedule(): void {
    this.timer = this.clock.setTimeout(() => {
      this.measure();
      this.schedule();
    }, this.limits.windowMs);
  }

  private measure(): void {
    const at = this.clock.now();
    const cpuMs = this.sources.cpuMs();
    const elapsed = Math.max(1, at - this.lastAt);
    this.sample = { loopDelayMs: this.sources.loopDelayMs(), cpu: (cpuMs - this.lastCpuMs) / elapsed };
    this.lastAt = at;
    this.lastCpuMs = cpuMs;
  }
}
