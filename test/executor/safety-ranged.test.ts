import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { ExecutorPolicy } from '../../src/executor/policy.js';
import { SafetyMonitor } from '../../src/executor/safety/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { harness, plan } from '../helpers/executor.js';

/** A stone sword in hand: what a charge at a skeleton takes (bare hands lose the race with its arrows). */
const SWORD: { inventory: Record<string, number>; heldItem: string | null } = {
  inventory: { stone_sword: 1 },
  heldItem: 'stone_sword',
};

/** A bot at 0,0,0 on flat ground and one mob `distance` blocks east of it, with nothing between unless a wall is put. */
function field(name: string, distance: number, wall = false, combat: 'auto' | 'avoid' = 'auto', held = SWORD) {
  const world = SimWorld.create({ clock: new ManualClock(), ground: { radius: 30 }, ...held });
  if (wall) world.fill({ x: 3, y: 0, z: -2 }, { x: 3, y: 3, z: 2 }, 'stone');
  world.spawnEntity({ name, kind: 'hostile', position: { x: distance + 0.5, y: 0, z: 0.5 } });
  return new SafetyMonitor(ExecutorPolicy.parse({ safety: { combat } }).safety, world);
}

describe('the safety monitor sees a skeleton that can shoot the bot, not only a mob within melee', () => {
  it('a skeleton within its bow range (15) with a line of sight is a hostile threat: the bot closes in on it, or with combat avoided flees out of its range', () => {
    const detail = "skeleton 12.0 blocks away, in its bow's range (15) with a line of sight";
    expect(field('skeleton', 12).check(0)).toMatchObject({
      signal: 'hostile',
      detail: `${detail}; close in on the skeleton: a skeleton, stone_sword 5 per hit, expected 11.4 damage taken of 20`,
      responses: [
        { verb: 'attack_entity', args: { target: { id: 1 } } },
        { verb: 'flee', args: { clearOf: ['skeleton'], distance: 16 } },
        // The ground is grass over dirt: dug by hand in 2.4 s, its dirt closing the top. No pillar, even as the last
        // resort: the skeleton shoots up it.
        { verb: 'dig_in' },
      ],
    });
    expect(field('skeleton', 12, false, 'avoid').check(0)).toMatchObject({
      signal: 'hostile',
      detail: expect.stringContaining(
        'flee out of the archers’ sight: a skeleton; the policy avoids fights',
      ) as unknown,
      responses: [{ verb: 'flee', args: { clearOf: ['skeleton'], distance: 16 } }, { verb: 'dig_in' }],
    });
    // Bare-handed, 20 hits and the chase take longer than its arrows leave the bot alive: out of its sight instead,
    // down a hole dug by hand before a flight in the open.
    expect(field('skeleton', 12, false, 'auto', { inventory: {}, heldItem: null }).check(0)).toMatchObject({
      detail: expect.stringContaining('shelter dug in under a closed top: a skeleton; a fight (bare hands') as unknown,
      responses: [{ verb: 'dig_in' }, { verb: 'flee' }],
    });
  });

  it('a skeleton behind a wall, or beyond its range, is no threat; nor is a zombie out of melee reach', () => {
    expect(field('skeleton', 12, true).check(0)).toBeNull();
    expect(field('skeleton', 16).check(0)).toBeNull();
    expect(field('zombie', 12).check(0)).toBeNull();
    expect(field('zombie', 4).check(0)).toMatchObject({
      signal: 'hostile',
      detail: expect.stringMatching(/^zombie 4.0 blocks away; /) as unknown,
    });
  });

  it('a walk with a skeleton in sight 12 blocks off is preempted: the bot closes in and kills it, then walks on', async () => {
    const h = await harness({ ground: { radius: 40 }, ...SWORD });
    const skeleton = h.world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 12.5, y: 0, z: 0.5 } });
    const result = await h.run(
      plan({ stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 0, y: 0, z: 20, range: 1 } } }),
    );
    expect(h.events.find((e) => e.type === 'safety.emergency')).toMatchObject({
      signal: 'hostile',
      response: 'attack_entity',
      detail: expect.stringMatching(
        /^close in on the skeleton: a skeleton, stone_sword 5 per hit, expected/,
      ) as unknown,
    });
    expect(h.world.entities().map((e) => e.id)).not.toContain(skeleton);
    expect(result.ok, JSON.stringify(result.steps.map((s) => [s.step.stepId, s.outcome]))).toBe(true);
  });

  it("a plan that avoids fights (safety.combat 'avoid') flees the same skeleton instead", async () => {
    const h = await harness({ ground: { radius: 40 }, ...SWORD });
    h.world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 12.5, y: 0, z: 0.5 } });
    await h.run({
      ...plan({ stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 0, y: 0, z: 20, range: 1 } } }),
      safety: { combat: 'avoid' },
    });
    expect(h.events.find((e) => e.type === 'safety.emergency')).toMatchObject({
      signal: 'hostile',
      response: 'flee',
      detail: expect.stringMatching(/^flee out of the archers’ sight: a skeleton; the policy avoids fights/) as unknown,
    });
    expect(h.world.actuatorLog.filter((entry) => entry.command === 'attack')).toEqual([]);
  });

  it("a step's own safety wins over its plan's: an escort step fights where the plan avoids", async () => {
    const h = await harness({ ground: { radius: 40 }, ...SWORD });
    h.world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 12.5, y: 0, z: 0.5 } });
    const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 0, y: 0, z: 20, range: 1 } } };
    await h.run({ ...plan(walk), steps: [{ ...walk, safety: { combat: 'auto' } }], safety: { combat: 'avoid' } });
    expect(h.events.find((e) => e.type === 'safety.emergency')).toMatchObject({ response: 'attack_entity' });
  });
});

/** A zombie 2.5 blocks east of the bot, where it stands now. */
function zombieBeside(world: SimWorld): number {
  const at = world.position();
  return world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: at.x + 2.5, y: 0, z: at.z + 0.5 } });
}

describe('a threat that keeps coming back ends the step instead of holding it for ever', () => {
  it('after policy.safety.maxPreemptionsPerStep takeovers the step fails preempted, naming what beat it', async () => {
    // A stone sword: a bare-handed fight with a zombie (22 hits, each after it walks back in) is a flight.
    const h = await harness({ ground: { radius: 60 }, ...SWORD }, { policy: { safety: { maxPreemptionsPerStep: 3 } } });
    // A zombie that stands in the bot's way again after every flight (as a swarm follows a bot back to its work).
    const zombie = () => zombieBeside(h.world);
    let current = zombie();
    h.assembly.executor.events.on('event', (event) => {
      if (event.type !== 'step.resumed') return;
      h.world.removeEntity(current);
      current = zombie();
    });
    const result = await h.run(
      plan({ stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 40, y: 0, z: 0, range: 1 } } }),
      600_000,
    );
    const walk = result.steps.find((s) => s.step.stepId === 'walk')!;
    expect(walk.outcome).toMatchObject({
      ok: false,
      code: 'preempted',
      detail: expect.stringMatching(
        /^3 zombies kept returning; 3 killed; health \d+ of 20: the safety monitor took this step over 3 times \(last: hostile, zombie/,
      ) as unknown,
    });
    expect(h.events.filter((e) => e.type === 'step.preempted' && e.stepId === 'walk')).toHaveLength(3);
  });

  it("a later plan's step of the same id names only what it met: the tally ends with its step", async () => {
    const h = await harness({ ground: { radius: 60 }, ...SWORD }, { policy: { safety: { maxPreemptionsPerStep: 2 } } });
    const zombie = () => zombieBeside(h.world);
    let current = zombie();
    h.assembly.executor.events.on('event', (event) => {
      if (event.type === 'step.resumed' || (event.type === 'plan.accepted' && event.planId === 'second')) {
        h.world.removeEntity(current);
        current = zombie();
      }
    });
    const walk = { stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 40, y: 0, z: 0, range: 1 } } };
    const detailOf = (result: Awaited<ReturnType<typeof h.run>>) =>
      result.steps.find((s) => s.step.stepId === 'walk')!.outcome;
    const first = detailOf(await h.run({ ...plan(walk), planId: 'first' }, 600_000));
    const second = detailOf(await h.run({ ...plan(walk), planId: 'second' }, 600_000));
    for (const outcome of [first, second])
      expect(outcome).toMatchObject({
        ok: false,
        code: 'preempted',
        detail: expect.stringMatching(/^2 zombies kept returning; 2 killed; /) as unknown,
      });
  });
});
