import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EntityInfo, EntityKind } from '../../src/contracts/index.js';
import { attackDistance } from '../../src/world/actuator-rules.js';
import {
  contactGap,
  type FightView,
  nextFightMove,
  reachesWithin,
  retreat,
  STRIKE_REACH,
} from '../../src/kit/fight-moves.js';

const feet = { x: 0.5, y: 0, z: 0.5 };
const mob = (id: number, x: number, z: number, name = 'zombie', kind: EntityKind = 'hostile'): EntityInfo => ({
  id,
  name,
  kind,
  position: { x: feet.x + x, y: 0, z: feet.z + z },
});
const view = (target: EntityInfo, others: EntityInfo[] = [], over: Partial<FightView> = {}): FightView => ({
  feet,
  target,
  others,
  chargeInMs: 0,
  targetStalledMs: 0,
  blockedBackOffs: 0,
  ...over,
});

describe('the fighting skill, move by move', () => {
  it('strikes a lone zombie in reach with a critical hit; with another one closing in, a sprinting hit instead', () => {
    expect(nextFightMove(view(mob(1, 2, 0)))).toMatchObject({ kind: 'strike', style: 'critical' });
    expect(nextFightMove(view(mob(1, 2, 0), [mob(2, -2, 0)]))).toMatchObject({ kind: 'strike', style: 'sprint' });
    // At the edge of reach a jump would lift the eyes out of it.
    expect(nextFightMove(view(mob(1, 2.7, 0)))).toMatchObject({ kind: 'strike', style: 'sprint' });
  });

  it('strikes the nearest hostile in reach, even if it is not the target', () => {
    expect(nextFightMove(view(mob(1, 2.5, 0), [mob(2, 0, -1.5)]))).toMatchObject({ kind: 'strike', mob: { id: 2 } });
  });

  it('while the sword recharges, backs away from the crowd when a zombie could reach the bot first; waits otherwise', () => {
    const pressed = nextFightMove(view(mob(1, 2, 0), [mob(2, 0, 3)], { chargeInMs: 400 }));
    expect(pressed).toMatchObject({ kind: 'back_off', move: 'back' });
    // Facing `from`, a step back leads away from both zombies.
    if (pressed.kind === 'back_off') {
      const step = { x: 2 * feet.x - pressed.from.x, z: 2 * feet.z - pressed.from.z };
      for (const zombie of [mob(1, 2, 0), mob(2, 0, 3)])
        expect(Math.hypot(zombie.position.x - step.x, zombie.position.z - step.z)).toBeGreaterThan(
          Math.hypot(zombie.position.x - feet.x, zombie.position.z - feet.z),
        );
    }
    // Knocked back 5 blocks, it cannot walk in within 400 ms.
    expect(nextFightMove(view(mob(1, 6, 0), [], { chargeInMs: 400 }))).toMatchObject({ kind: 'wait' });
    // A wall behind: sidestep, one way then the other.
    expect(nextFightMove(view(mob(1, 2, 0), [], { chargeInMs: 400, blockedBackOffs: 1 }))).toMatchObject({
      move: 'left',
    });
    expect(nextFightMove(view(mob(1, 2, 0), [], { chargeInMs: 400, blockedBackOffs: 2 }))).toMatchObject({
      move: 'right',
    });
  });

  it('never backs away from an archer while the sword recharges: a knocked-back skeleton is chased, a zombie beside it still stepped from', () => {
    // Within a zombie's reach of the charge, but a skeleton has no blow: backing off would only let it get away.
    expect(nextFightMove(view(mob(1, 2.5, 0, 'skeleton'), [], { chargeInMs: 400 }))).toMatchObject({
      kind: 'close_in',
    });
    expect(nextFightMove(view(mob(1, 6, 0, 'skeleton'), [], { chargeInMs: 400 }))).toMatchObject({ kind: 'close_in' });
    // Up in the air after the hit, right by the bot: let it land.
    expect(nextFightMove(view(mob(1, 1.5, 0, 'skeleton'), [], { chargeInMs: 400 }))).toMatchObject({ kind: 'wait' });
    expect(nextFightMove(view(mob(1, 6, 0, 'skeleton'), [mob(2, 2, 0)], { chargeInMs: 400 }))).toMatchObject({
      kind: 'back_off',
    });
  });

  it('watches a knocked-back zombie walk in rather than follow it; goes after one that stopped coming, a cow, or a skeleton', () => {
    expect(nextFightMove(view(mob(1, 5, 0)))).toMatchObject({ kind: 'watch', mob: { id: 1 } });
    expect(nextFightMove(view(mob(1, 5, 0), [], { targetStalledMs: 3_000 }))).toMatchObject({ kind: 'close_in' });
    expect(nextFightMove(view(mob(1, 5, 0, 'cow', 'passive')))).toMatchObject({ kind: 'close_in' });
    // A skeleton keeps its distance and shoots: charged at once.
    expect(nextFightMove(view(mob(1, 8, 0, 'skeleton')))).toMatchObject({ kind: 'close_in' });
  });

  it('a retreat from two zombies on either side does not walk into a third', () => {
    const way = retreat(feet, [mob(1, 2, 0), mob(2, -2, 0)], [mob(1, 2, 0), mob(2, -2, 0), mob(3, 0, -3)]);
    expect(way.z).toBeCloseTo(1, 9);
  });

  it("a zombie is in contact 1.43 blocks off along an axis (its box grown by its melee reach meets the bot's)", () => {
    expect(contactGap(mob(1, 1.4, 0), feet)).toBe(0);
    expect(contactGap(mob(1, 3, 1), feet)).toBeCloseTo(3 - (0.3 + Math.sqrt(2.04) - 0.6 + 0.3), 9);
    // 2.3 blocks a second, and a quarter second to react.
    expect(reachesWithin(mob(1, 2.9, 0), feet, 400)).toBe(true);
    expect(reachesWithin(mob(1, 4, 0), feet, 400)).toBe(false);
  });
});

const kinds: [string, EntityKind][] = [
  ['zombie', 'hostile'],
  ['skeleton', 'hostile'],
  ['creeper', 'hostile'],
  ['spider', 'hostile'],
  ['player', 'player'],
  ['cow', 'passive'],
];
const arbitraryMob = (id: number) =>
  fc
    .record({
      x: fc.double({ min: -9, max: 9, noNaN: true }),
      z: fc.double({ min: -9, max: 9, noNaN: true }),
      kind: fc.constantFrom(...kinds),
    })
    .map(({ x, z, kind }) => mob(id, x, z, ...kind));
const arbitraryView = fc
  .record({
    target: arbitraryMob(1).filter((m) => m.kind !== 'player'),
    others: fc.array(fc.nat(8), { maxLength: 6 }).chain((ids) => fc.tuple(...ids.map((_, i) => arbitraryMob(i + 2)))),
    chargeInMs: fc.integer({ min: -200, max: 700 }),
    targetStalledMs: fc.nat(5_000),
    blockedBackOffs: fc.nat(4),
  })
  .map(({ target, others, ...rest }) => view(target, others, rest));

describe('the fighting skill, for any encounter', () => {
  it('never strikes a player, a passive mob that is not the target, a mob out of reach, or before the charge is full', () => {
    fc.assert(
      fc.property(arbitraryView, (v) => {
        const move = nextFightMove(v);
        if (move.kind !== 'strike') return;
        expect(move.mob.kind).not.toBe('player');
        expect(move.mob.id === v.target.id || move.mob.kind === 'hostile').toBe(true);
        expect(attackDistance(v.feet, move.mob.position)).toBeLessThanOrEqual(STRIKE_REACH);
        expect(v.chargeInMs).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('while the weapon recharges, walks only after an archer target, and backs off only with a walker able to reach the bot first', () => {
    const archer = (m: EntityInfo) => m.name === 'skeleton';
    fc.assert(
      fc.property(arbitraryView, (v) => {
        fc.pre(v.chargeInMs > 0);
        const move = nextFightMove(v);
        expect(['back_off', 'wait', ...(archer(v.target) ? ['close_in'] : [])]).toContain(move.kind);
        const hostiles = [v.target, ...v.others].filter((m) => m.kind === 'hostile' && !archer(m));
        const pressing = hostiles.filter((m) => Math.hypot(m.position.x - feet.x, m.position.z - feet.z) <= 8);
        expect(move.kind === 'back_off').toBe(pressing.some((m) => reachesWithin(m, feet, v.chargeInMs)));
      }),
    );
  });

  it('a charged weapon with a hostile in reach always swings, at the nearest in reach', () => {
    fc.assert(
      fc.property(arbitraryView, (v) => {
        fc.pre(v.chargeInMs <= 0);
        const strikable = [v.target, ...v.others.filter((m) => m.kind === 'hostile')].filter(
          (m) =>
            attackDistance(feet, m.position) <= STRIKE_REACH &&
            Math.hypot(m.position.x - feet.x, m.position.z - feet.z) <= 8,
        );
        const move = nextFightMove(v);
        expect(move.kind === 'strike').toBe(strikable.length > 0);
        if (move.kind === 'strike') {
          const distance = (m: EntityInfo) => Math.hypot(m.position.x - feet.x, m.position.z - feet.z);
          expect(distance(move.mob)).toBeCloseTo(Math.min(...strikable.map(distance)), 9);
        }
      }),
    );
  });

  it('a critical hit only when no other hostile can reach the bot during the jump', () => {
    fc.assert(
      fc.property(arbitraryView, (v) => {
        const move = nextFightMove(v);
        if (move.kind !== 'strike' || move.style !== 'critical') return;
        const others = [v.target, ...v.others].filter(
          (m) =>
            m.id !== move.mob.id &&
            m.kind === 'hostile' &&
            Math.hypot(m.position.x - feet.x, m.position.z - feet.z) <= 8,
        );
        expect(others.some((m) => reachesWithin(m, feet, 450))).toBe(false);
      }),
    );
  });
});
