import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { registerOutageMetrics, wallTimeOf, type Outage } from '../../src/cli/worker/outage.js';

const NOW = Date.parse('2026-12-06T03:00:00Z');

afterEach(() => vi.useRealTimers());

describe("a worker's outage, as its metrics say it", () => {
  it('a moment of the monotonic clock reads as the wall time it was (not a time in 1970)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const clock = new ManualClock();
    await clock.advance(20_000);
    // Away since 5 s of the process's clock, 15 s ago.
    expect(new Date(wallTimeOf(clock, 5_000)).toISOString()).toBe('2026-12-06T02:59:45.000Z');
  });

  it('says how many bots are disconnected and since when each, and SERVER UNREACHABLE past the limit with since when', async () => {
    const registry = new Registry();
    let outage: Outage = { disconnected: [], unreachableSince: null };
    registerOutageMetrics(registry, () => outage);
    const value = async (name: string) => (await registry.getSingleMetric(name)!.get()).values;

    expect(await value('verbtree_worker_bots_disconnected')).toMatchObject([{ value: 0 }]);
    expect(await value('verbtree_worker_server_unreachable')).toMatchObject([{ value: 0 }]);

    outage = {
      disconnected: [
        { bot: 'ra', since: NOW - 4_000 },
        { bot: 'rb', since: NOW - 3_000 },
      ],
      unreachableSince: null,
    };
    expect(await value('verbtree_worker_bots_disconnected')).toMatchObject([{ value: 2 }]);
    expect(await value('verbtree_worker_bot_disconnected_since_seconds')).toEqual([
      expect.objectContaining({ labels: { bot: 'ra' }, value: (NOW - 4_000) / 1000 }),
      expect.objectContaining({ labels: { bot: 'rb' }, value: (NOW - 3_000) / 1000 }),
    ]);

    // Past the limit the bots are given up: none held away, the server unreachable since the limit passed.
    outage = { disconnected: [], unreachableSince: NOW };
    expect(await value('verbtree_worker_server_unreachable')).toMatchObject([{ value: 1 }]);
    expect(await value('verbtree_worker_server_unreachable_since_seconds')).toMatchObject([{ value: NOW / 1000 }]);
    expect(await value('verbtree_worker_bot_disconnected_since_seconds')).toEqual([]);
    expect(await registry.metrics()).toMatch(/# HELP verbtree_worker_server_unreachable SERVER UNREACHABLE/);
  });
});
