import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attackDamage } from '../../src/world/actuator-rules.js';
import {
  attackCharge,
  attackCooldownMs,
  attackCooldownTicks,
  attackSpeed,
  damageToMob,
  isCritical,
  knockbackDistance,
  KNOCKBACK_MAX_FALL,
  knockedBackTo,
  Melee,
  meleeDamage,
} from '../../src/world/mob-rules/combat.js';
import { HOSTILE_STATS, maxHealth } from '../../src/world/mob-rules/stats.js';

// Each number is the Minecraft Wiki's (Attack speed, Damage#Attack cooldown, Damage#Critical hit, Zombie, Knockback);
// a drift fails here.
const full = (held: string | null) => ({ held, charge: 1, falling: false, sprinting: false });
const ground = { block: (_x: number, y: number) => (y < 5 ? 'stone' : 'air') };
const melee = () => ({ held: 'stone_sword', falling: false, sprinting: false });

describe('melee: attack speed and cooldown', () => {
  it('swings a sword 1.6 times a second (0.625 s), a hand 4, axes, pickaxes, shovels and hoes by material', () => {
    expect(attackSpeed('stone_sword')).toBe(1.6);
    expect(attackCooldownMs('iron_sword')).toBe(625);
    expect(attackCooldownTicks('diamond_sword')).toBe(12.5);
    expect(attackSpeed(null)).toBe(4);
    expect(attackCooldownMs(null)).toBe(250);
    expect(attackSpeed('stick')).toBe(4);
    expect(attackSpeed('wooden_axe')).toBe(0.8);
    expect(attackSpeed('stone_axe')).toBe(0.8);
    expect(attackSpeed('iron_axe')).toBe(0.9);
    expect(attackSpeed('golden_axe')).toBe(1);
    expect(attackSpeed('diamond_axe')).toBe(1);
    expect(attackSpeed('netherite_axe')).toBe(1);
    expect(attackSpeed('stone_pickaxe')).toBe(1.2);
    expect(attackSpeed('iron_shovel')).toBe(1);
    expect(attackSpeed('iron_hoe')).toBe(3);
  });

  it('charges as (ticks + 0.5) / cooldown, at most 1; a swing deals 0.2 + 0.8 × charge² of the full damage', () => {
    expect(attackCharge(12, 'stone_sword')).toBe(1);
    expect(attackCharge(0, 'stone_sword')).toBeCloseTo(0.04, 10);
    expect(attackCharge(6, 'stone_sword')).toBeCloseTo(0.52, 10);
    expect(meleeDamage(full('stone_sword'))).toBe(5);
    expect(meleeDamage({ ...full('stone_sword'), charge: 0 })).toBeCloseTo(1, 10);
    expect(meleeDamage({ ...full('stone_sword'), charge: 0.5 })).toBeCloseTo(2, 10);
  });

  it('never deals more than a full charge, and more charge never deals less', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) => {
        const [low, high] = a < b ? [a, b] : [b, a];
        const at = (charge: number) => meleeDamage({ ...full('iron_sword'), charge });
        expect(at(low)).toBeLessThanOrEqual(at(high) + 1e-12);
        expect(at(high)).toBeLessThanOrEqual(attackDamage('iron_sword') + 1e-12);
      }),
    );
  });
});

describe('melee: critical hits', () => {
  it('deal ×1.5 while falling and not sprinting, charged above 0.9', () => {
    const falling = { ...full('stone_sword'), falling: true };
    expect(isCritical(falling)).toBe(true);
    expect(meleeDamage(falling)).toBe(7.5);
    expect(isCritical({ ...falling, sprinting: true })).toBe(false);
    expect(isCritical({ ...falling, charge: 0.9 })).toBe(false);
    expect(isCritical(full('stone_sword'))).toBe(false);
  });
});

describe("melee: a mob's armour, health and immunity", () => {
  it('a zombie wears 2 armour points: a stone sword takes 4.92 a hit, so five hits kill its 20 health', () => {
    expect(HOSTILE_STATS.zombie!.armour).toBe(2);
    expect(maxHealth('zombie')).toBe(20);
    expect(maxHealth('skeleton')).toBe(20);
    // 5 × (1 − max(2 / 5, 2 − 5 / 2) / 25) = 4.92.
    expect(damageToMob('zombie', 5)).toBeCloseTo(4.92, 10);
    expect(damageToMob('skeleton', 5)).toBe(5);
    expect(Math.ceil(20 / damageToMob('zombie', 5))).toBe(5);
  });

  it('a mob hit again within 10 ticks takes nothing from a weaker hit and only the excess of a stronger one', () => {
    const rules = new Melee();
    const skeleton = { id: 7, name: 'skeleton' };
    expect(rules.hit(1, skeleton, melee(), 100).damage).toBe(5);
    // 5 ticks later: the charge is (5 + 0.5) / 12.5 = 0.44, 5 × (0.2 + 0.8 × 0.1936) = 1.77 < 5, absorbed.
    const weak = rules.hit(1, skeleton, melee(), 105);
    expect(weak).toEqual({ damage: 0, critical: false, knockback: 0 });
    // Another player's full diamond swing within the immunity: only the excess of 7 over 5, and no push.
    expect(rules.hit(2, skeleton, { ...melee(), held: 'diamond_sword' }, 107)).toEqual({
      damage: 2,
      critical: false,
      knockback: 0,
    });
    // A fresh hit 10 ticks after the first: the full swing again.
    expect(rules.hit(1, skeleton, melee(), 118).damage).toBe(5);
  });

  it('a change of held item starts the charge over', () => {
    const rules = new Melee();
    rules.hold(1, 'stone_sword', 0);
    rules.hold(1, 'iron_sword', 100);
    // 2 ticks after drawing the iron sword: (2.5 / 12.5)² × 0.8 + 0.2 = 0.232 of 6.
    expect(rules.hit(1, { id: 9, name: 'skeleton' }, { ...melee(), held: 'iron_sword' }, 102).damage).toBeCloseTo(
      6 * 0.232,
      10,
    );
  });
});

describe('melee: knockback', () => {
  it('a plain hit pushes a mob about 2.9 blocks on flat ground, a sprinting full swing about 5.3', () => {
    expect(knockbackDistance(0.4)).toBeCloseTo(2.91, 2);
    expect(knockbackDistance(0.7)).toBeCloseTo(5.34, 2);
    const rules = new Melee();
    expect(rules.hit(1, { id: 3, name: 'zombie' }, melee(), 0).knockback).toBeCloseTo(2.91, 2);
    expect(rules.hit(1, { id: 4, name: 'zombie' }, { ...melee(), sprinting: true }, 20).knockback).toBeCloseTo(5.34, 2);
  });

  it('straight away from the attacker, stopped short of a wall', () => {
    expect(knockedBackTo(ground, { x: 0.5, y: 5, z: 0.5 }, { x: 2.5, y: 5, z: 0.5 }, 2.9)).toEqual({
      x: 5.25,
      y: 5,
      z: 0.5,
    });
    const walled = { block: (x: number, y: number) => (y < 5 || x === 4 ? 'stone' : 'air') };
    expect(knockedBackTo(walled, { x: 0.5, y: 5, z: 0.5 }, { x: 2.5, y: 5, z: 0.5 }, 2.9).x).toBe(3.75);
  });

  it('off a ledge the mob falls to the ground below and slides on there, the whole distance, as vanilla carries it', () => {
    // The ground steps down a block at x = 4 and three more at x = 6; the slide goes on over both edges.
    const steps = { block: (x: number, y: number) => (y < (x >= 6 ? 1 : x >= 4 ? 4 : 5) ? 'stone' : 'air') };
    expect(knockedBackTo(steps, { x: 0.5, y: 5, z: 0.5 }, { x: 2.5, y: 5, z: 0.5 }, 5.3)).toEqual({
      x: 7.75,
      y: 1,
      z: 0.5,
    });
    // A drop deeper than KNOCKBACK_MAX_FALL is not followed: the slide stops at its edge.
    const cliff = {
      block: (x: number, y: number) => (y < (x >= 4 ? 5 - KNOCKBACK_MAX_FALL - 1 : 5) ? 'stone' : 'air'),
    };
    expect(knockedBackTo(cliff, { x: 0.5, y: 5, z: 0.5 }, { x: 2.5, y: 5, z: 0.5 }, 2.9)).toEqual({
      x: 3.75,
      y: 5,
      z: 0.5,
    });
  });
});
