import { attackDamage } from '../actuator-rules.js';
import { damageAfterArmour } from './armour.js';
import { HurtImmunity } from './hurt.js';
import { HOSTILE_STATS, TICK_MS, TICKS_PER_SECOND } from './stats.js';
import { canStand, type MobTerrain, open, type Position } from './terrain.js';

/*
 * A player's melee as vanilla Java 1.21 deals it (Player.attack in Mojang's mappings; https://minecraft.wiki/w/Damage
 * #Attack_cooldown, /w/Attack_speed, /w/Damage#Critical_hit, /w/Knockback_(mechanic)). One module both worlds' attacks go
 * through, so a fight in SimWorld costs the hits and the seconds it costs on the embedded server.
 */

/** Swings per second of an empty hand (the player's attack-speed attribute, 4). */
export const HAND_ATTACK_SPEED = 4;

const MATERIALS = ['wooden', 'golden', 'stone', 'iron', 'diamond', 'netherite'];
/** A tool's attack speed by material (wooden, golden, stone, iron, diamond, netherite): the wiki's Attack speed table. */
const ATTACK_SPEEDS: Readonly<Record<string, readonly [number, number, number, number, number, number]>> = {
  sword: [1.6, 1.6, 1.6, 1.6, 1.6, 1.6],
  axe: [0.8, 1, 0.8, 0.9, 1, 1],
  pickaxe: [1.2, 1.2, 1.2, 1.2, 1.2, 1.2],
  shovel: [1, 1, 1, 1, 1, 1],
  hoe: [1, 1, 2, 3, 4, 4],
};

/** Swings per second at full charge of what the hand holds; anything that is no tool swings as the hand. */
export function attackSpeed(held: string | null): number {
  const cut = held?.lastIndexOf('_') ?? -1;
  const tier = MATERIALS.indexOf(held?.slice(0, cut) ?? '');
  const speed = cut < 0 || tier < 0 ? undefined : ATTACK_SPEEDS[held!.slice(cut + 1)]?.[tier];
  return speed ?? HAND_ATTACK_SPEED;
}

/** Ticks from one swing to the next at full charge (Player.getCurrentItemAttackStrengthDelay: 20 / attack speed). */
export function attackCooldownTicks(held: string | null): number {
  return TICKS_PER_SECOND / attackSpeed(held);
}

/** The same in milliseconds: a sword's 12.5 ticks are 625 ms. */
export function attackCooldownMs(held: string | null): number {
  return attackCooldownTicks(held) * TICK_MS;
}

/**
 * How charged a swing is after `ticks` since the last swing or change of held item
 * (Player.getAttackStrengthScale(0.5): (ticks + 0.5) / cooldown, at most 1).
 */
export function attackCharge(ticks: number, held: string | null): number {
  return Math.max(0, Math.min(1, (ticks + 0.5) / attackCooldownTicks(held)));
}

/** A critical hit deals this much more; it needs a swing charged above CRITICAL_MIN_CHARGE. */
export const CRITICAL_MULTIPLIER = 1.5;
export const CRITICAL_MIN_CHARGE = 0.9;

/** What the world knows of a swing when it lands. */
export interface Swing {
  held: string | null;
  /** attackCharge at the moment of the swing. */
  charge: number;
  /** Coming down (fall distance above 0, off the ground): a critical hit, if not sprinting. */
  falling: boolean;
  sprinting: boolean;
}

/** A critical hit: charged above 0.9, falling, not sprinting (the wiki's conditions that a bot can meet). */
export function isCritical(swing: Swing): boolean {
  return swing.charge > CRITICAL_MIN_CHARGE && swing.falling && !swing.sprinting;
}

/** The swing's damage before the mob's armour: the held item's, times 0.2 + 0.8 × charge², times 1.5 when critical. */
export function meleeDamage(swing: Swing): number {
  const scaled = attackDamage(swing.held) * (0.2 + 0.8 * swing.charge * swing.charge);
  return isCritical(swing) ? scaled * CRITICAL_MULTIPLIER : scaled;
}

/** What a hit of `damage` takes off the mob `name` after its natural armour (a zombie wears 2 points). */
export function damageToMob(name: string, damage: number): number {
  return damageAfterArmour(damage, { points: HOSTILE_STATS[name]?.armour ?? 0, toughness: 0 });
}

/**
 * Knockback strength of every hit (LivingEntity.hurt: knockback(0.4)); a sprinting swing charged above 0.9 adds 0.5
 * (Player.attack: knockback level 1 × 0.5).
 */
export const KNOCKBACK_STRENGTH = 0.4;
export const SPRINT_KNOCKBACK_STRENGTH = 0.5;

/**
 * The horizontal speed a swing gives the mob: the hurt's 0.4; a sprinting swing charged above 0.9 pushes again with 0.5
 * on top of half of that (knockback halves the speed it finds before adding its own).
 */
function pushStrength(swing: Swing): number {
  const sprintHit = swing.sprinting && swing.charge > CRITICAL_MIN_CHARGE;
  return sprintHit ? KNOCKBACK_STRENGTH / 2 + SPRINT_KNOCKBACK_STRENGTH : KNOCKBACK_STRENGTH;
}

/**
 * Blocks a mob standing on flat ground slides away from a hit of `strength`: the push sets its horizontal speed to
 * `strength` and its vertical to min(0.4, −0.0784 / 2 + strength) blocks per tick (LivingEntity.knockback); in the air
 * gravity takes 0.08 a tick, drag keeps 0.98 vertically and 0.91 horizontally, on the ground friction keeps 0.6 × 0.91
 * (LivingEntity.travel). A plain hit pushes a mob about 2.9 blocks, a sprinting one about 5.3.
 */
export function knockbackDistance(strength: number): number {
  let speed = strength;
  let rise = Math.min(0.4, -0.0784 / 2 + strength);
  let height = 0;
  let distance = 0;
  while (speed > 0.003) {
    distance += speed;
    height += rise;
    if (height > 0) {
      rise = (rise - 0.08) * 0.98;
      speed *= 0.91;
    } else {
      height = 0;
      speed *= 0.6 * 0.91;
    }
  }
  return distance;
}

/** The deepest fall a knocked-back mob is followed down (a cliff's foot further down stops the slide at its edge). */
export const KNOCKBACK_MAX_FALL = 16;

/**
 * Where a hit pushes a mob: `distance` blocks straight away from the attacker. A wall ends the slide; off a ledge the
 * mob falls to the ground below and slides on there, as vanilla's knockback carries it over the edge (stopping it at
 * the edge kept a zombie on a 1-block step in reach of a bot that hit it bare-handed 7 times in a night's run). The
 * fall's damage and the air's longer slide are left out.
 */
export function knockedBackTo(terrain: MobTerrain, attacker: Position, mob: Position, distance: number): Position {
  const dx = mob.x - attacker.x;
  const dz = mob.z - attacker.z;
  const length = Math.hypot(dx, dz) || 1;
  let reached = { x: mob.x, y: mob.y, z: mob.z };
  for (let along = 0.25; along <= distance + 1e-9; along += 0.25) {
    const x = mob.x + (along * dx) / length;
    const z = mob.z + (along * dz) / length;
    const y = landing(terrain, Math.floor(x), Math.floor(reached.y), Math.floor(z));
    if (y === null) break;
    reached = { x, y, z };
  }
  return reached;
}

/** Where a mob sliding into cell (x, y, z) stands: there, or on the ground it falls to below; null against a wall. */
function landing(terrain: MobTerrain, x: number, y: number, z: number): number | null {
  if (canStand(terrain, x, y, z)) return y;
  if (!open(terrain, x, y, z) || !open(terrain, x, y + 1, z)) return null;
  for (let below = y - 1; below >= y - KNOCKBACK_MAX_FALL; below--) {
    if (canStand(terrain, x, below, z)) return below;
    if (!open(terrain, x, below, z)) return null;
  }
  return null;
}

/**
 * A player's attack strength ticker: it starts over at each swing and whenever the main hand's item changes
 * (Player.tick resets it when the held stack differs), so a weapon just drawn swings weak.
 */
export class AttackStrength {
  private resetAt = -Infinity;

  constructor(private held: string | null) {}

  /** The hand holds `held` at `tick`: a different item starts the charge over. */
  hold(held: string | null, tick: number): void {
    if (held === this.held) return;
    this.held = held;
    this.resetAt = tick;
  }

  /** A swing with `held` at `tick`: the charge it had; the charge starts over. */
  swing(held: string | null, tick: number): number {
    this.hold(held, tick);
    const charge = attackCharge(tick - this.resetAt, held);
    this.resetAt = tick;
    return charge;
  }
}

/** A landed swing, as the world applies it. */
export interface MeleeHit {
  /** Health it takes off the mob: after the mob's armour and its hurt immunity (0: the hit did nothing). */
  damage: number;
  critical: boolean;
  /** Blocks it pushes the mob (0 within the mob's immunity, where vanilla negates knockback). */
  knockback: number;
}

/**
 * Melee for one world: each player's attack strength and each mob's hurt immunity after a hit (10 ticks, as a
 * player's: a weaker hit within them does nothing, a stronger one only its excess). Ticks are the world's game ticks.
 */
export class Melee {
  private readonly strength = new Map<number, AttackStrength>();
  private readonly immunity = new HurtImmunity();

  /** The player's hand holds `held` at `tick` (the worlds tell it each tick, as Player.tick checks). */
  hold(player: number, held: string | null, tick: number): void {
    this.strengthOf(player, held).hold(held, tick);
  }

  /** A player's swing that landed on `mob` at `tick`. */
  hit(
    player: number,
    mob: { id: number; name: string },
    how: { held: string | null; falling: boolean; sprinting: boolean },
    tick: number,
  ): MeleeHit {
    const swing = { ...how, charge: this.strengthOf(player, how.held).swing(how.held, tick) };
    const { damage, fresh } = this.immunity.strike(mob.id, damageToMob(mob.name, meleeDamage(swing)), tick);
    return { damage, critical: isCritical(swing), knockback: fresh ? knockbackDistance(pushStrength(swing)) : 0 };
  }

  /** A mob died or a player left: what was kept for it goes. */
  forget(id: number): void {
    this.immunity.forget(id);
    this.strength.delete(id);
  }

  private strengthOf(player: number, held: string | null): AttackStrength {
    let strength = this.strength.get(player);
    if (!strength) this.strength.set(player, (strength = new AttackStrength(held)));
    return strength;
  }
}
