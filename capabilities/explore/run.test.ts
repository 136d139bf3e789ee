import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../src/runtime/index.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import { simWorldFromScenario } from '../../src/world/sim-scenario.js';
import { harness, plan } from '../../test/helpers/executor.js';

const explore = (args: Record<string, unknown>) => ({ stepId: 'look', type: 'explore', args });
const distanceTo = (p: { x: number; z: number }, q: { x: number; z: number }) => Math.hypot(p.x - q.x, p.z - q.z);

describe('explore runs end to end on SimWorld', () => {
  it('walks out until the block is in sight, then stops: in sight as the world holds it, reporting lookouts', async () => {
    const progress: ProgressEvent[] = [];
    const ore = { x: 50, y: 0, z: 4 };
    const h = await harness(
      { blocks: [{ position: ore, name: 'iron_ore' }] },
      { hooks: { progress: (event) => progress.push(event) } },
    );
    const result = await h.run(plan(explore({ block: '#iron_ores', sight: 24 })), 600_000);
    expect(result, result.detail).toMatchObject({ ok: true });
    expect(distanceTo(h.world.position(), ore)).toBeLessThanOrEqual(25);
    // It stopped at the first lookout that brought the ore into sight, not at the last one.
    expect(progress.at(-1)!.done).toBeLessThan(progress.at(-1)!.total!);
  });

  it('does not move when the block is already in sight', async () => {
    const h = await harness({ blocks: [{ position: { x: 5, y: 0, z: 0 }, name: 'oak_log' }] });
    const result = await h.run(plan(explore({ block: 'oak_log' })));
    expect(result.ok).toBe(true);
    expect(h.world.actuatorLog).toEqual([]);
  });

  it('a buried block is not in sight: it fails explicitly after every lookout, naming how far it looked', async () => {
    // Iron ore under the ground's dirt, nowhere in the open.
    const h = await harness({ blocks: [{ position: { x: 3, y: -6, z: 3 }, name: 'iron_ore' }] });
    const result = await h.run(plan(explore({ block: 'iron_ore', radius: 32, sight: 16 })), 900_000);
    expect(result).toMatchObject({ ok: false, code: 'precondition_missing' });
    expect(result.detail).toMatch(/no iron_ore in the open within 32 blocks of \(0, 0\): walked to all 16 lookouts/);
  });

  it('a walk cut short (a pause, a flee) is walked again when the step goes on: every lookout is reached, none counted unreachable', async () => {
    const h = await harness({ blocks: [{ position: { x: 3, y: -6, z: 3 }, name: 'iron_ore' }] });
    let result: Awaited<ReturnType<typeof h.run>> | undefined;
    const run = h.assembly.executor.run(plan(explore({ block: 'iron_ore', radius: 32, sight: 16 })));
    void run.result.then((r) => (result = r));
    for (const at of [3_000, 9_000, 20_000]) {
      await h.clock.advance(at - h.clock.now());
      run.pause('cut a walk short');
      await h.clock.advance(500);
      run.resume();
    }
    await h.clock.runUntil(() => result !== undefined, 900_000);
    expect(h.events.filter((e) => e.type === 'step.preempted')).toHaveLength(3);
    expect(result).toMatchObject({ ok: false, code: 'precondition_missing' });
    expect(result!.detail).toMatch(/walked to all 16 lookouts$/);
  });

  it('on generated survival terrain, brings iron ore into sight from the spawn (seeds 1-5), then collect_block gathers it', async () => {
    for (let seed = 1; seed <= 5; seed++) {
      const scenario = parseScenario({
        name: 'survival',
        terrain: { kind: 'survival', seed },
        bot: { inventory: { stone_pickaxe: 1 } },
      });
      const h = await harness((clock) => simWorldFromScenario(scenario, { clock, seed }));
      const result = await h.run(
        plan(explore({ block: '#iron_ores', sight: 24 }), {
          stepId: 'mine',
          type: 'collect_block',
          args: { block: '#iron_ores', count: 2, radius: 24 },
        }),
        900_000,
      );
      expect(
        result.steps
          .filter((s) => !s.parentStepId)
          .map((s) => [s.step.stepId, s.outcome.ok ? 'ok' : `${s.outcome.code}: ${s.outcome.detail}`]),
        `seed ${seed}`,
      ).toEqual([
        ['look', 'ok'],
        ['mine', 'ok'],
      ]);
      expect(h.world.inventory().raw_iron ?? 0).toBeGreaterThanOrEqual(2);
    }
  });
});
