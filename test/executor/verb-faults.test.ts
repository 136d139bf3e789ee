import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { injectFaults } from '../../src/executor/fault-injection.js';
import { FaultSpecError, injectWorldFaults, parseFaultSpecs } from '../../src/world/faults/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { harness, plan } from '../helpers/executor.js';

const trunk = [0, 1, 2].map((y) => ({ position: { x: 6, y, z: 0 }, name: 'oak_log' }));
const verbs = createDefaultRegistry().verbs();

/** A step of each verb the fault must reach, with a world it would otherwise succeed in. */
const cases = [
  {
    verb: 'collect_block',
    step: { stepId: 's', type: 'collect_block', args: { block: 'oak_log', count: 2 } },
    world: { blocks: trunk },
  },
  {
    verb: 'explore',
    step: { stepId: 's', type: 'explore', args: { block: 'oak_log', sight: 16 } },
    world: { blocks: [{ position: { x: 40, y: 0, z: 0 }, name: 'oak_log' }] },
  },
  {
    verb: 'navigate',
    step: { stepId: 's', type: 'navigate', args: { target: { kind: 'near', x: 8, y: 0, z: 0, range: 1 } } },
    world: {},
  },
];

describe('a fault aimed at a verb reaches every actuator that verb calls while it runs', () => {
  for (const { verb, step, world } of cases) {
    it(`${verb}=throw:no_path: the step fails, and it succeeds without the fault`, async () => {
      expect(verbs).toContain(verb);
      const clean = await harness(world);
      expect((await clean.run(plan(step), 900_000)).ok).toBe(true);
      const faulted = await harness(world, (clock) => ({
        wrapInvoker: (invoker) =>
          injectFaults(invoker, parseFaultSpecs([`${verb}=throw:no_path`], { extraVerbs: verbs }), { clock }),
      }));
      const result = await faulted.run(plan(step), 900_000);
      expect(result.ok).toBe(false);
      expect(result.detail).toContain(`${verb}=throw:no_path`);
    });
  }

  it('a verb the world cannot see run (no executor telling it) is refused, not silently ignored', () => {
    const rules = parseFaultSpecs(['wave=hang'], { extraVerbs: ['wave'] });
    expect(() =>
      injectWorldFaults(SimWorld.create({ clock: new ManualClock() }), rules, { clock: new ManualClock() }),
    ).toThrow(FaultSpecError);
    expect(() =>
      injectWorldFaults(SimWorld.create({ clock: new ManualClock() }), rules, { clock: new ManualClock() }),
    ).toThrow(/cannot tell when wave runs/);
  });
});
