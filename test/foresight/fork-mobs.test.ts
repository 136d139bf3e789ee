import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { captureView, forkWorld } from '../../src/foresight/index.js';
import { TICK_MS } from '../../src/world/mob-rules/index.js';
import { SimWorld } from '../../src/world/sim/index.js';

const BOUNDS = { radius: 8, height: 4 };
const NIGHT = 18_000;

/** A creeper two blocks from the bot on open stone at night: it takes the bot as its target and lights its fuse. */
function creeperBeside(clock: ManualClock): { world: SimWorld; creeper: number } {
  const world = SimWorld.create({ clock, timeOfDay: NIGHT, health: 20 });
  world.fill({ x: -8, y: -1, z: -8 }, { x: 8, y: -1, z: 8 }, 'stone');
  const creeper = world.spawnEntity({ name: 'creeper', kind: 'hostile', position: { x: 2.5, y: 0, z: 0.5 }, ai: true });
  return { world, creeper };
}

/** Ticks the world until `gone` holds, at most `limitMs`; the virtual time it took. */
async function timeUntil(clock: ManualClock, gone: () => boolean, limitMs: number): Promise<number> {
  const start = clock.now();
  await clock.runUntil(gone, limitMs);
  return clock.now() - start;
}

describe('a fork copies what the world shows of a mob, not only its place and health', () => {
  it('a creeper forked mid-fuse blows up on the fork when it does in the world, and hurts the bot alike', async () => {
    const clock = new ManualClock();
    const { world, creeper } = creeperBeside(clock);
    const swelling = () => world.entities().find((entity) => entity.id === creeper)?.swelling === true;
    await clock.runUntil(swelling, 60_000);
    expect(swelling()).toBe(true);
    // Ten ticks into its fuse (of thirty), on a tick's edge.
    await clock.advance(10 * TICK_MS);

    const view = await captureView(world, BOUNDS);
    const seen = view.entities.find((entity) => entity.name === 'creeper');
    expect(seen).toMatchObject({ swelling: true, aggressive: true });
    expect(seen?.fuseTicks).toBeGreaterThanOrEqual(10);

    const forkClock = new ManualClock();
    const fork = forkWorld(structuredClone(view), { clock: forkClock });
    const forked = fork.entities().find((entity) => entity.name === 'creeper');
    expect(forked).toMatchObject({ swelling: true, aggressive: true, fuseTicks: seen?.fuseTicks });

    const blownInWorld = await timeUntil(clock, () => !world.entities().some((e) => e.id === creeper), 10_000);
    const blownInFork = await timeUntil(forkClock, () => !fork.entities().some((e) => e.name === 'creeper'), 10_000);
    expect(blownInWorld).toBeLessThan(1_500);
    expect(blownInFork).toBe(blownInWorld);
    expect(fork.health()).toBe(world.health());
  });

  it('a mob seen after the bot (aggressive) is after the bot on the fork from its first tick', async () => {
    const clock = new ManualClock();
    // By day a spider under the open sky does not take a target of its own; one the bot provoked keeps it.
    const world = SimWorld.create({ clock, timeOfDay: 6000, health: 20 });
    world.fill({ x: -8, y: -1, z: -8 }, { x: 8, y: -1, z: 8 }, 'stone');
    const spider = world.spawnEntity({ name: 'spider', kind: 'hostile', position: { x: 2.5, y: 0, z: 0.5 }, ai: true });
    const hit = world.attack(spider, { recover: false });
    await clock.runUntil(() => world.liveActuators() === 0, 5_000);
    await hit;
    await clock.advance(TICK_MS);
    expect(world.entities().find((entity) => entity.id === spider)?.aggressive).toBe(true);

    const view = await captureView(world, BOUNDS);
    expect(view.entities.find((entity) => entity.name === 'spider')?.aggressive).toBe(true);
    const forkClock = new ManualClock();
    const fork = forkWorld(structuredClone(view), { clock: forkClock });
    await forkClock.advance(TICK_MS);
    const before = view.entities.find((entity) => entity.name === 'spider')!.position;
    const forked = fork.entities().find((entity) => entity.name === 'spider');
    expect(forked?.aggressive).toBe(true);
    expect(forked!.position.x).toBeLessThan(before.x);
  });
});
