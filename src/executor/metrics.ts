import type { FailureCode } from '../contracts/failure-codes.js';

const SAMPLE_WINDOW = 1_000;
const FAILURE_WINDOW = 10;

export interface CapabilitySla {
  capability: string;
  runs: number;
  successes: number;
  successRate: number;
  ttfaP50Ms: number | null;
  ttfaP95Ms: number | null;
  meanDurationMs: number | null;
  lastFailures: { code: FailureCode; detail: string; at: number }[];
}

export interface ExecutionTotals {
  plans: number;
  steps: number;
  retries: number;
  retriesThatSucceeded: number;
  repairs: number;
  repairsPerPlan: number;
  localRetrySuccessRate: number | null;
  stuckLoops: number;
  stuckLoopsPerHour: number | null;
}

function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

class Window {
  private readonly values: number[] = [];
  constructor(private readonly size: number) {}
  add(value: number): void {
    this.values.push(value);
    if (this.values.length > this.size) this.values.shift();
  }
  sorted(): number[] {
    return [...this.values].sort((a, b) => a - b);
  }
}

interface Tally {
  runs: number;
  successes: number;
  durationTotal: number;
  ttfa: Window;
  failures: CapabilitySla['lastFailures'];
}

/** Measured, not declared: per-capability SLA and per-plan repair figures, computed from real runs. */
export class ExecutionMetrics {
  private readonly tallies = new Map<string, Tally>();
  private readonly totals = { plans: 0, steps: 0, retries: 0, retriesThatSucceeded: 0, repairs: 0, stuckLoops: 0 };
  private firstAt: number | null = null;
  private lastAt: number | null = null;

  recordStep(
    capability: string,
    at: number,
    durationMs: number,
    ttfaMs: number | null,
    failure?: { code: FailureCode; detail: string },
  ): void {
    const tally = this.tally(capability);
    tally.runs++;
    tally.durationTotal += durationMs;
    if (ttfaMs !== null) tally.ttfa.add(ttfaMs);
    if (failure) {
      tally.failures.push({ ...failure, at });
      if (tally.failures.length > FAILURE_WINDOW) tally.failures.shift();
      if (failure.code === 'stuck.loop') this.totals.stuckLoops++;
    } else {
      tally.successes++;
    }
    this.totals.steps++;
    this.firstAt ??= at - durationMs;
    this.lastAt = at;
  }

  recordPlan(): void {
    this.totals.plans++;
  }

  recordRetry(): void {
    this.totals.retries++;
  }

  recordRetrySucceeded(): void {
    this.totals.retriesThatSucceeded++;
  }

  recordRepair(): void {
    this.totals.repairs++;
  }

  sla(): CapabilitySla[] {
    return [...this.tallies.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([capability, t]) => {
        const ttfa = t.ttfa.sorted();
        return {
          capability,
          runs: t.runs,
          successes: t.successes,
          successRate: t.runs ? t.successes / t.runs : 0,
          ttfaP50Ms: percentile(ttfa, 50),
          ttfaP95Ms: percentile(ttfa, 95),
          meanDurationMs: t.runs ? t.durationTotal / t.runs : null,
          lastFailures: [...t.failures],
        };
      });
  }

  summary(): ExecutionTotals {
    const hours = this.firstAt !== null && this.lastAt !== null ? (this.lastAt - this.firstAt) / 3_600_000 : 0;
    return {
      ...this.totals,
      repairsPerPlan: this.totals.plans ? this.totals.repairs / this.totals.plans : 0,
      localRetrySuccessRate: this.totals.retries ? this.totals.retriesThatSucceeded / this.totals.retries : null,
      stuckLoopsPerHour: hours > 0 ? this.totals.stuckLoops / hours : null,
    };
  }

  private tally(capability: string): Tally {
    let tally = this.tallies.get(capability);
    if (!tally) {
      tally = { runs: 0, successes: 0, durationTotal: 0, ttfa: new Window(SAMPLE_WINDOW), failures: [] };
      this.tallies.set(capability, tally);
    }
    return tally;
  }
}
