import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EntityInfo } from '../../src/contracts/index.js';
import { type FightView, nextFightMove, STRIKE_REACH } from '../../src/kit/fight-moves.js';

/*
 * Strike and back off a creeper: a sprint hit as its fuse lights knocks it past its defuse range (3 + 5.3 > 7), so
 * it is never struck otherwise, and a creeper whose fuse burns within 7 blocks is struck at once or backed off from;
 * where a back-off got nowhere, stepped in on and struck when a step of a block brings it into reach.
 */

const feet = { x: 0.5, y: 0, z: 0.5 };
const creeper = (id: number, x: number, z: number, swelling: boolean): EntityInfo => ({
  id,
  name: 'creeper',
  kind: 'hostile',
  position: { x: feet.x + x, y: 0, z: feet.z + z },
  swelling,
});
const zombie = (id: number, x: number, z: number): EntityInfo => ({
  id,
  name: 'zombie',
  kind: 'hostile',
  position: { x: feet.x + x, y: 0, z: feet.z + z },
});
const view = (target: EntityInfo, others: EntityInfo[] = [], chargeInMs = 0): FightView => ({
  feet,
  target,
  others,
  chargeInMs,
  targetStalledMs: 0,
  blockedBackOffs: 0,
});

describe('the fighting skill against a creeper', () => {
  it('strikes a creeper in reach sprinting, never with a critical hit (half the knock-back leaves its fuse burning)', () => {
    // Alone and in reach: a zombie here is struck critically (fight-moves.test.ts).
    expect(nextFightMove(view(creeper(1, 2, 0, true)))).toMatchObject({ kind: 'strike', style: 'sprint' });
    expect(nextFightMove(view(creeper(1, 2, 0, false)))).toMatchObject({ kind: 'strike', style: 'sprint' });
  });

  it('strikes a burning creeper before a zombie nearer to it', () => {
    const move = nextFightMove(view(zombie(2, 0, -1.2), [creeper(1, 2.5, 0, true)]));
    expect(move).toMatchObject({ kind: 'strike', mob: { id: 1 }, style: 'sprint' });
  });

  it('backs off from a burning creeper while the weapon recharges, and from one out of reach: away from it', () => {
    for (const move of [
      nextFightMove(view(creeper(1, 2, 0, true), [], 300)),
      nextFightMove(view(creeper(1, 5, 0, true))),
    ]) {
      expect(move).toMatchObject({ kind: 'back_off', move: 'back' });
      // It faces the creeper's side: its step back leads away from it.
      if (move.kind === 'back_off') expect(move.from.x).toBeGreaterThan(feet.x);
    }
  });

  it('steps in on a creeper that lit its fuse just out of reach (3 blocks off, level ground) once a back-off got nowhere, with the weapon charged', () => {
    // It lights within 3 blocks, feet to feet; the swing reaches 2.76 across on level ground.
    const justOut = creeper(1, 2.95, 0, true);
    const blocked = (target: EntityInfo, chargeInMs = 0): FightView => ({
      ...view(target, [], chargeInMs),
      blockedBackOffs: 1,
    });
    expect(nextFightMove(blocked(justOut))).toMatchObject({ kind: 'step_in', mob: { id: 1 } });
    // The way back open, or the weapon recharging: a back-off.
    expect(nextFightMove(view(justOut))).toMatchObject({ kind: 'back_off' });
    expect(nextFightMove(blocked(justOut, 300))).toMatchObject({ kind: 'back_off' });
    // A step does not bring one 5 blocks off, nor one 2.5 blocks down below a ledge, into reach: it is backed off from.
    expect(nextFightMove(blocked(creeper(1, 5, 0, true)))).toMatchObject({ kind: 'back_off' });
    const belowALedge = { ...justOut, position: { ...justOut.position, x: feet.x + 2.6, y: -2.5 } };
    expect(nextFightMove(blocked(belowALedge))).toMatchObject({ kind: 'back_off' });
  });

  it('never waits nor closes in while a creeper burns within its defuse range: it strikes it, steps in to strike it charged, or backs off', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -7, max: 7, noNaN: true }),
        fc.double({ min: -7, max: 7, noNaN: true }),
        fc.integer({ min: 0, max: 1_000 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        (x, z, chargeInMs, withZombie, blockedBackOffs) => {
          fc.pre(Math.hypot(x, z) <= 7 && Math.hypot(x, z) >= 0.5);
          const lit = creeper(1, x, z, true);
          const target = withZombie ? zombie(2, -x, -z) : lit;
          const move = nextFightMove({ ...view(target, withZombie ? [lit] : [], chargeInMs), blockedBackOffs });
          if (move.kind === 'strike') expect(move).toMatchObject({ mob: { id: 1 }, style: 'sprint' });
          else if (move.kind === 'step_in') {
            // Only charged, after a back-off got nowhere, and at the creeper a step of a block puts in reach.
            expect(chargeInMs).toBe(0);
            expect(blockedBackOffs).toBeGreaterThan(0);
            expect(move.mob.id).toBe(1);
            expect(Math.hypot(x, z)).toBeLessThan(STRIKE_REACH + 1);
          } else expect(move.kind).toBe('back_off');
        },
      ),
    );
  });
});
