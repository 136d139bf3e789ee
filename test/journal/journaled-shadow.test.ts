import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import type { PlanResult } from '../../src/executor/events.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { registerContribution } from '../../src/registry/contribution.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp } from './helpers.js';

const CANARY_MODULE = fileURLToPath(new URL('../foresight/fixtures/navigate-canary.ts', import.meta.url));

async function projectRegistry() {
  const registry = createDefaultRegistry();
  await registerContribution(registry, (await import(CANARY_MODULE)) as Record<string, unknown>, CANARY_MODULE);
  return registry;
}

describe('a journaled executor with a canary in its registry', () => {
  it("shadows the canary's verb on a fork in a worker thread and keeps both runs in the journal", async () => {
    const { journal } = openTemp();
    const clock = new ManualClock();
    const world = SimWorld.create({ clock });
    const assembly = await assembleJournaled({
      registry: await projectRegistry(),
      world,
      clock,
      journal,
      kind: 'test',
    });
    let result: PlanResult | undefined;
    const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 4, y: 0, z: 0 } } };
    void (await assembly.run({ planId: 'p', intentId: 'i', steps: [walk] })).result.then((r) => (result = r));
    await clock.runUntil(() => result !== undefined, 60_000);
    await assembly.close();
    expect(result?.ok).toBe(true);
    expect(assembly.shadows).toMatchObject({ started: 1, errors: [] });
    const runs = await journal.versionRuns('navigate');
    expect(runs.map(({ version, shadow, ok }) => ({ version, shadow, ok }))).toEqual(
      expect.arrayContaining([
        { version: '1.0.0', shadow: false, ok: true },
        { version: '9.0.0', shadow: true, ok: true },
      ]),
    );
  }, 120_000);

  it('acts by the canaries the journal says were promoted', async () => {
    const { journal } = openTemp();
    await journal.recordPromotion('navigate', '9.0.0');
    const registry = await projectRegistry();
    const clock = new ManualClock();
    const assembly = await assembleJournaled({
      registry,
      world: SimWorld.create({ clock }),
      clock,
      journal,
      kind: 'test',
    });
    await assembly.close();
    expect(registry.resolve('navigate')).toMatchObject({ ok: true, spec: { version: '9.0.0' } });
    expect(registry.canaryOf('navigate')).toBeUndefined();
  });
});
