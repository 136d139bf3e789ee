import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { WorldError } from '../../src/contracts/world.js';
import { type FaultyWorld, InjectedFault, injectWorldFaults, parseFaultSpecs } from '../../src/world/faults/index.js';
import { SimWorld, settle, track } from '../../src/world/sim/index.js';

const FAR = { kind: 'block', x: 0, y: 0, z: 20 } as const;

function faulty(specs: string[], extra: { seed?: number; activeVerb?: () => string | undefined } = {}) {
  const clock = new ManualClock();
  const sim = SimWorld.create({ clock, inventory: { cobblestone: 4, stone_axe: 1 } });
  sim.setBlock({ x: 1, y: 0, z: 0 }, 'dirt');
  const world: FaultyWorld = injectWorldFaults(sim, parseFaultSpecs(specs), { clock, ...extra });
  return { clock, sim, world };
}

describe('world fault: hang', () => {
  it('never settles and never reaches the world, but rejects aborted when its signal fires', async () => {
    const { clock, sim, world } = faulty(['navigate=hang']);
    const controller = new AbortController();
    const outcome = track(world.goto(FAR, { signal: controller.signal }));
    await clock.advance(60_000);
    expect(outcome.outcome.state).toBe('pending');
    expect(sim.position()).toEqual({ x: 0.5, y: 0, z: 0.5 });
    controller.abort();
    await clock.advance(0);
    expect(outcome.outcome).toMatchObject({ code: 'aborted' });
    expect(world.injections).toEqual([{ at: 0, method: 'goto', rule: 'navigate=hang', fault: 'hang' }]);
  });

  it('hang_ignoring_abort stays pending even after abort', async () => {
    const { clock, world } = faulty(['goto=hang_ignoring_abort']);
    const controller = new AbortController();
    const outcome = track(world.goto(FAR, { signal: controller.signal }));
    controller.abort();
    await clock.advance(60_000);
    expect(outcome.outcome.state).toBe('pending');
  });
});

describe('world fault: throw, reject, flaky', () => {
  it('throw raises synchronously', () => {
    const { world } = faulty(['dig=throw']);
    expect(() => world.dig({ x: 1, y: 0, z: 0 })).toThrow(InjectedFault);
  });

  it('reject rejects with an InjectedFault, or a WorldError when a code is given', async () => {
    const { world } = faulty(['dig=reject', 'goto=reject:no_path']);
    await expect(world.dig({ x: 1, y: 0, z: 0 })).rejects.toBeInstanceOf(InjectedFault);
    await expect(world.goto(FAR)).rejects.toEqual(
      new WorldError('no_path', 'injected reject fault on goto (goto=reject:no_path)'),
    );
  });

  it('flaky fails about p of the calls, the same ones for the same seed', async () => {
    const pattern = async (seed: number) => {
      const { clock, world } = faulty(['equip=flaky:0.3'], { seed });
      const results: boolean[] = [];
      for (let i = 0; i < 200; i++)
        results.push((await settle(clock, world.equip('stone_axe', 'hand'))).state === 'ok');
      return results;
    };
    const first = await pattern(7);
    const failures = first.filter((ok) => !ok).length;
    expect(failures).toBeGreaterThan(40);
    expect(failures).toBeLessThan(80);
    expect(await pattern(7)).toEqual(first);
    expect(await pattern(8)).not.toEqual(first);
  });
});

describe('world fault: slow, wrong effects, partial', () => {
  it('slow delays by clock time, then does the real thing; abort during the delay rejects and does nothing', async () => {
    const { clock, sim, world } = faulty(['dig_block=slow:500']);
    const outcome = track(world.dig({ x: 1, y: 0, z: 0 }));
    await clock.advance(499 + 750);
    expect(sim.blockAt({ x: 1, y: 0, z: 0 })?.name).toBe('dirt');
    await clock.advance(1);
    expect(outcome.outcome.state).toBe('ok');
    expect(sim.blockAt({ x: 1, y: 0, z: 0 })?.name).toBe('air');
    const controller = new AbortController();
    const aborted = track(world.dig({ x: 0, y: -1, z: 0 }, { signal: controller.signal }));
    await clock.advance(100);
    controller.abort();
    await clock.advance(5000);
    expect(aborted.outcome).toMatchObject({ code: 'aborted' });
    expect(sim.blockAt({ x: 0, y: -1, z: 0 })?.name).toBe('grass_block');
    expect(clock.pendingTimers()).toBe(0);
  });

  it('wrong_effects resolves as if done but changes nothing', async () => {
    const { clock, sim, world } = faulty(['place_block=wrong_effects']);
    expect(await settle(clock, world.place({ x: 2, y: 0, z: 0 }, 'cobblestone'))).toEqual({ state: 'ok' });
    expect(sim.blockAt({ x: 2, y: 0, z: 0 })?.name).toBe('air');
    expect(sim.actuatorLog).toEqual([]);
  });

  it('partial walks part of the way, then stalls until aborted', async () => {
    const { clock, sim, world } = faulty(['navigate=partial:1000']);
    const controller = new AbortController();
    const outcome = track(world.goto(FAR, { signal: controller.signal }));
    await clock.advance(30_000);
    expect(outcome.outcome.state).toBe('pending');
    expect(sim.position().z).toBe(4.5);
    expect(sim.liveActuators()).toBe(0);
    controller.abort();
    await clock.advance(0);
    expect(outcome.outcome).toMatchObject({ code: 'aborted' });
  });

  it('partial lets calls through within its window and stalls the later ones', async () => {
    const { clock, sim, world } = faulty(['build_structure=partial:120']);
    expect(await settle(clock, world.place({ x: 2, y: 0, z: 0 }, 'cobblestone'))).toEqual({ state: 'ok' });
    expect(await settle(clock, world.place({ x: 3, y: 0, z: 0 }, 'cobblestone'))).toEqual({ state: 'ok' });
    const third = track(world.place({ x: 4, y: 0, z: 0 }, 'cobblestone'));
    await clock.advance(10_000);
    expect(third.outcome.state).toBe('pending');
    expect(sim.inventory().cobblestone).toBe(2);
  });
});

describe('world fault targeting', () => {
  it('leaves unaffected actuators and reads alone', async () => {
    const { clock, world } = faulty(['dig=hang']);
    expect(await settle(clock, world.goto({ kind: 'block', x: 0, y: 0, z: 2 }))).toEqual({ state: 'ok' });
    expect(world.position()).toEqual({ x: 0.5, y: 0, z: 2.5 });
    expect(world.blockAt({ x: 1, y: 0, z: 0 })?.name).toBe('dirt');
  });

  it('with activeVerb, a verb rule hits only while that verb runs', async () => {
    let verb: string | undefined = 'flee';
    const { clock, world } = faulty(['navigate=hang'], { activeVerb: () => verb });
    expect(await settle(clock, world.goto({ kind: 'block', x: 0, y: 0, z: 2 }))).toEqual({ state: 'ok' });
    verb = 'navigate';
    const outcome = track(world.goto({ kind: 'block', x: 0, y: 0, z: 4 }));
    await clock.advance(10_000);
    expect(outcome.outcome.state).toBe('pending');
  });
});
