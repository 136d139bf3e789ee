import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Death, WorldError } from '../../src/contracts/world.js';
import { JOIN_WATCH_MS } from '../../src/kit/break-off.js';
import { fightUntilGone } from '../../src/kit/fight.js';
import { joinDistance } from '../../src/kit/joining.js';
import { TICK_MS } from '../../src/world/mob-rules/index.js';
import { nightFightWorld } from '../helpers/night-fight.js';
import { bareRunContext } from '../helpers/run-context.js';

/*
 * Issue 30: a fight judged on one encounter breaks off when a hostile it was not judged on comes within reach of the
 * bot, so that the new encounter is judged at the health the bot has then. On the server's world 10 of a tech-tree run
 * a fight judged on a lone zombie went on while a spider joined it, and broke off only at its health point of 6.
 */

type Kind = 'zombie' | 'spider' | 'skeleton';

interface Arrival {
  name: Kind;
  bearing: number;
  distance: number;
  atMs: number;
}

interface Scene {
  held: string;
  zombie: { bearing: number; distance: number };
  arrivals: Arrival[];
  /** The arrivals the fight counts as judged on (as a counted joiner is), by index. */
  judged: boolean[];
}

describe('a fight breaks off when a mob it was not judged on joins it', () => {
  it('a zombie fought with a wooden sword, a spider released 14 blocks off 1 s in: the fight breaks off saying so as the spider comes within reach', async () => {
    const run = await fightScene({
      held: 'wooden_sword',
      zombie: { bearing: 0, distance: 5 },
      arrivals: [{ name: 'spider', bearing: 180, distance: 14, atMs: 1_000 }],
      judged: [false],
    });
    expect(run.error, run.summary).toBeInstanceOf(WorldError);
    expect((run.error as WorldError).code).toBe('preempted');
    expect((run.error as WorldError).message).toBe('a spider joined the fight with the zombie: judged again');
    expect(run.firstInReach, run.summary).not.toBeNull();
    expect(run.endedAt! - run.firstInReach!, run.summary).toBeLessThanOrEqual(JOIN_WATCH_MS + TICK_MS);
    expect(run.deaths, run.summary).toEqual([]);
  });

  it('a spider standing within reach when the fight began (seen by its judgement) does not break it off', async () => {
    const run = await fightScene(
      {
        held: 'stone_sword',
        zombie: { bearing: 0, distance: 5 },
        arrivals: [{ name: 'spider', bearing: 180, distance: 4, atMs: 0 }],
        judged: [false],
      },
      { arrivalsStill: true },
    );
    expect(run.error, run.summary).toBeNull();
    expect(
      run.world.entities().some((e) => e.name === 'zombie'),
      run.summary,
    ).toBe(false);
  });

  it('the join distances come from the mob rules: a zombie 2 s of its walk from a blow, a spider farther, an archer its bow range', () => {
    expect(joinDistance('zombie')).toBeCloseTo(6, 1);
    expect(joinDistance('spider')!).toBeGreaterThan(joinDistance('zombie')!);
    expect(joinDistance('skeleton')).toBe(15);
    expect(joinDistance('cow')).toBeNull();
  });

  it('over generated fights with mobs arriving mid-fight: one not judged on breaks the fight off within a look of coming within reach, a judged one never does', async () => {
    await fc.assert(
      fc.asyncProperty(scenes, async (scene) => {
        const run = await fightScene(scene);
        if (run.firstInReach === null) {
          expect(String(run.error), run.summary).not.toContain('joined the fight');
          return;
        }
        // The fight ends at the look after the joiner came (or sooner, its zombie dead), and a break-off names a joiner.
        expect(run.endedAt! - run.firstInReach, run.summary).toBeLessThanOrEqual(JOIN_WATCH_MS + TICK_MS);
        if (run.error instanceof WorldError && run.error.code === 'preempted')
          expect(run.error.message, run.summary).toMatch(
            /^(a spider|a skeleton|another zombie) joined the fight with the zombie: judged again$/,
          );
      }),
      { numRuns: 30, seed: 20_261_207 },
    );
  });
});

const bearing = fc.integer({ min: 0, max: 359 });
const scenes: fc.Arbitrary<Scene> = fc
  .array(
    fc.record({
      name: fc.constantFrom<Kind>('zombie', 'spider', 'skeleton'),
      bearing,
      distance: fc.integer({ min: 10, max: 20 }),
      atMs: fc.integer({ min: 0, max: 4_000 }),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .chain((arrivals) =>
    fc.record({
      held: fc.constantFrom('wooden_sword', 'stone_sword'),
      zombie: fc.record({ bearing, distance: fc.integer({ min: 3, max: 8 }) }),
      arrivals: fc.constant(arrivals),
      judged: fc.array(fc.boolean(), { minLength: arrivals.length, maxLength: arrivals.length }),
    }),
  );

const around = ({ bearing, distance }: { bearing: number; distance: number }) => {
  const angle = (bearing * Math.PI) / 180;
  return { x: Math.floor(distance * Math.cos(angle)) + 0.5, y: 5, z: Math.floor(distance * Math.sin(angle)) + 0.5 };
};

/**
 * Fights the zombie in SimWorld at night, the arrivals spawned on schedule, judged on the zombie and the arrivals
 * marked judged; when an arrival not judged was first seen within its join distance (a probe each tick) and the end.
 */
async function fightScene(scene: Scene, options: { arrivalsStill?: boolean } = {}) {
  const { clock, world } = nightFightWorld(scene.held, 40);
  const deaths: Death[] = [];
  world.events.on('died', (death) => deaths.push(death));
  const zombie = world.spawnEntity({ name: 'zombie', kind: 'hostile', position: around(scene.zombie), ai: true });
  const judgedOn = [zombie];
  const unjudged = new Set<number>();
  const ctx = bareRunContext(world, clock);
  let error: unknown = null;
  let endedAt: number | null = null;
  // A judged arrival was seen coming when the fight was judged: it is about from the start. The others come later.
  scene.arrivals.forEach((arrival, i) => {
    const spawn = () => {
      const id = world.spawnEntity({
        name: arrival.name,
        kind: 'hostile',
        position: around(arrival),
        ai: options.arrivalsStill !== true,
      });
      if (scene.judged[i]) judgedOn.push(id);
      else unjudged.add(id);
    };
    if (scene.judged[i]) spawn();
    else clock.setTimeout(() => endedAt === null && spawn(), arrival.atMs);
  });
  let firstInReach: number | null = null;
  const probe = () => {
    if (endedAt !== null) return;
    const at = world.position();
    const inReach = world
      .entities()
      .some(
        (e) =>
          unjudged.has(e.id) &&
          Math.hypot(e.position.x - at.x, e.position.y - at.y, e.position.z - at.z) <= joinDistance(e.name)!,
      );
    if (inReach && firstInReach === null) firstInReach = clock.now();
    clock.setTimeout(probe, TICK_MS);
  };
  // Spawned within reach at the start, an arrival is there when the fight is judged: the probe starts after it.
  clock.setTimeout(probe, options.arrivalsStill ? 60_000 : 0);
  clock.setTimeout(() => {
    void fightUntilGone(ctx, { id: zombie, name: 'zombie' }, 40, undefined, { judgedOn })
      .catch((failure: unknown) => (error = failure))
      .finally(() => (endedAt = clock.now()));
  }, 1);
  await clock.runUntil(() => endedAt !== null, 120_000);
  const summary = JSON.stringify({
    scene,
    firstInReach,
    endedAt,
    error: String(error),
    deaths,
    health: world.health(),
  });
  return { world, error, endedAt, deaths, firstInReach: firstInReach as number | null, summary };
}
