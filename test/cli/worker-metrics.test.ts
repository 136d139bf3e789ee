import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LagDiscountingClock, ManualClock } from '../../src/clock/index.js';
import { DEFAULT_HEADROOM } from '../../src/cli/worker/headroom.js';
import { registerOutageMetrics } from '../../src/cli/worker/outage.js';
import { createWorkerMetrics } from '../../src/cli/worker/worker-metrics.js';

describe("a worker's metrics", () => {
  it('count the time its loop was late and not charged to its steps, from its bots clock', async () => {
    const base = new ManualClock();
    const clock = new LagDiscountingClock(base);
    clock.setTimeout(() => undefined, 60_000);
    await base.stall(5_000);
    const text = await metricsOf(() => clock.stolenMs()).registry.metrics();
    // Of the 5 s stall, all but the probe's 100 ms and its 50 ms of tolerance.
    expect(text).toMatch(/^verbtree_worker_loop_stolen_seconds_total 4\.85$/m);
  });

  it("declare every worker series the Grafana dashboard names (the journal's are the pool's; see overload.test.ts)", async () => {
    const dashboard = JSON.parse(readFileSync('examples/grafana/fleet-dashboard.json', 'utf8')) as {
      panels: { targets: { expr: string }[] }[];
    };
    const named = dashboard.panels.flatMap((p) =>
      p.targets.flatMap((t) => t.expr.match(/verbtree_worker_[a-z_]+/g) ?? []),
    );
    const { registry } = metricsOf(() => 0);
    registerOutageMetrics(registry, () => ({ disconnected: [], unreachableSince: null }));
    const page = await registry.metrics();
    const declared = new Set([...page.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    expect(named).toContain('verbtree_worker_loop_stolen_seconds_total');
    expect(named.filter((name) => !declared.has(name))).toEqual([]);
  });
});

function metricsOf(stolenMs: () => number) {
  return createWorkerMetrics({
    worker: {
      botsHeld: 0,
      counts: { claimsRefused: 0, fences: {} },
      admission: { plansWaiting: 0, plansHeldBack: 0 },
    } as never,
    headroom: { headroom: () => ({ room: true }), last: null, limits: { ...DEFAULT_HEADROOM } },
    capacity: 1,
    fencedWritesRefused: () => 0,
    stolenMs,
  });
}
