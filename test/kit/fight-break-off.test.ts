import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WorldError } from '../../src/contracts/world.js';
import { fightUntilGone } from '../../src/kit/fight.js';
import { nightFightWorld } from '../helpers/night-fight.js';
import { bareRunContext } from '../helpers/run-context.js';
import { harness, plan } from '../helpers/executor.js';
import { match } from '../helpers/matchers.js';

/*
 * Issue 30: a fight breaks off at the blow that takes the bot's health below its break-off point, within the move in
 * progress, not when that move ends. Read between moves only, a break-off set at 15.3 in a night's tech-tree run
 * (SimWorld's world 10) fired at 10: a move had lasted about 2.5 s with three zombies hitting.
 */

describe('a fight breaks off within a move', () => {
  it('a walk up to a cow 12 blocks off, a blow to 9 on the way with the break-off at 10: the walk stops where the blow found the bot, and the step fails preempted at once', async () => {
    const h = await harness({});
    const cow = h.world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 12.5, y: 0, z: 0.5 } });
    let blowAt: number | null = null;
    let blowX = 0;
    h.world.onMoved((feet) => {
      if (blowAt !== null || feet.x < 4) return;
      [blowAt, blowX] = [h.clock.now(), feet.x];
      h.world.setHealth(9);
    });
    const result = await h.run(
      plan({ stepId: 'fight', type: 'attack_entity', args: { target: { id: cow }, breakOffBelow: 10 } }),
    );
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'preempted',
      detail: match.stringContaining('health 9 is below 10: the fight with the cow breaks off to be judged again'),
    });
    const walks = h.world.actuatorLog.filter((entry) => entry.command === 'goto');
    expect(walks).toHaveLength(1);
    expect(walks[0]).toMatchObject({ outcome: 'aborted', settledAt: blowAt });
    await h.clock.advance(2_000);
    expect(h.world.position().x).toBe(blowX);
    expect(h.world.entities().map((e) => e.id)).toContain(cow);
  });

  it('over generated fights and blows: the fight ends at the blow that crosses the point, no command of it running on, and says so', async () => {
    await fc.assert(
      fc.asyncProperty(fights, async (fight) => {
        const { crossing, error, endedAt, log, summary } = await fightWithBlows(fight);
        if (!crossing) {
          expect(error === null || (error as WorldError).code !== 'preempted', summary).toBe(true);
          return;
        }
        expect(error, summary).toBeInstanceOf(WorldError);
        expect((error as WorldError).code, summary).toBe('preempted');
        expect((error as WorldError).message, summary).toBe(
          `health ${crossing.health} is below ${fight.point}: the fight with the ${fight.target.name} breaks off to be judged again`,
        );
        expect(endedAt, summary).toBe(crossing.at);
        for (const entry of log) {
          expect(entry.startedAt, summary).toBeLessThanOrEqual(crossing.at);
          expect(entry.settledAt, summary).not.toBeNull();
          expect(entry.settledAt!, summary).toBeLessThanOrEqual(crossing.at);
        }
      }),
      { numRuns: 40, seed: 20_261_207 },
    );
  });
});

interface Fight {
  held: string | null;
  /** The mob fought: a cow stands (the bot walks up to it), a zombie walks up to the bot. */
  target: { name: 'cow' | 'zombie'; bearing: number; distance: number };
  /** Zombies about, hunting the bot. */
  zombies: { bearing: number; distance: number }[];
  /** The break-off point: above the monitor's low health (6) by more than the biggest blow. */
  point: number;
  /** Blows from outside the fight (an archer's arrows, a mob the bot does not see), by the fight's clock. */
  blows: { atMs: number; damage: number }[];
}

const bearing = fc.integer({ min: 0, max: 359 });
const fights: fc.Arbitrary<Fight> = fc.record({
  held: fc.constantFrom(null, 'wooden_sword', 'stone_sword'),
  target: fc.record({
    name: fc.constantFrom('cow' as const, 'zombie' as const),
    bearing,
    distance: fc.integer({ min: 3, max: 14 }),
  }),
  zombies: fc.array(fc.record({ bearing, distance: fc.integer({ min: 4, max: 10 }) }), { maxLength: 2 }),
  point: fc.integer({ min: 100, max: 180 }).map((tenths) => tenths / 10),
  blows: fc.array(fc.record({ atMs: fc.integer({ min: 0, max: 6_000 }), damage: fc.integer({ min: 1, max: 4 }) }), {
    minLength: 1,
    maxLength: 5,
  }),
});

const around = ({ bearing, distance }: { bearing: number; distance: number }) => {
  const angle = (bearing * Math.PI) / 180;
  return { x: Math.floor(distance * Math.cos(angle)) + 0.5, y: 5, z: Math.floor(distance * Math.sin(angle)) + 0.5 };
};

/** Fights the target in SimWorld with the blows landing on schedule; when the health first fell below the point. */
async function fightWithBlows(fight: Fight) {
  const { clock, world } = nightFightWorld(fight.held, 24);
  const { name } = fight.target;
  const kind = name === 'cow' ? 'passive' : 'hostile';
  const id = world.spawnEntity({ name, kind, position: around(fight.target), ai: kind === 'hostile' });
  for (const zombie of fight.zombies)
    world.spawnEntity({ name: 'zombie', kind: 'hostile', position: around(zombie), ai: true });
  let crossing: { at: number; health: number } | null = null;
  world.events.on('hurt', (health) => {
    if (!crossing && health < fight.point) crossing = { at: clock.now(), health };
  });
  for (const { atMs, damage } of fight.blows) clock.setTimeout(() => world.setHealth(world.health() - damage), atMs);
  const ctx = bareRunContext(world, clock);
  const since = world.actuatorLog.length;
  let error: unknown = null;
  let endedAt: number | null = null;
  void fightUntilGone(ctx, { id, name }, 40, undefined, { below: fight.point })
    .catch((failure: unknown) => (error = failure))
    .finally(() => (endedAt = clock.now()));
  await clock.runUntil(() => endedAt !== null, 120_000);
  const log = world.actuatorLog.slice(since);
  const summary = JSON.stringify({ fight, crossing, endedAt, error: String(error), health: world.health() });
  return { crossing: crossing as { at: number; health: number } | null, error, endedAt, log, summary };
}
