import type { AttackStyle, EntityInfo, UnstuckMove, Vec3Like } from '../contracts/index.js';
import { ATTACK_REACH, attackDistance, PLAYER_WALK_SPEED } from '../world/actuator-rules.js';
import { HOSTILE_STATS, MELEE_REACH, mobSize, PLAYER_WIDTH } from '../world/mob-rules/index.js';

/*
 * A player's melee skill as pure functions of what the bot sees this moment: strike at full charge the nearest mob in
 * reach, jump for a critical hit when no other mob can close in during the jump (a sprinting hit, knocking the mob
 * twice as far, when one can); while the weapon recharges, back away from the crowd's centre when a mob could reach
 * the bot before the next swing, so a knocked-back mob must walk in again; never follow a mob into the crowd.
 */

/** Reach counted for a swing: a little under the world's, as the mob and the bot move between the look and the hit. */
export const STRIKE_REACH = ATTACK_REACH - 0.15;
/** How high a critical swing comes from: the jump lifts the eyes about a block by the time the bot comes down. */
export const JUMP_HEIGHT = 1;
/** From the start of a jump to the critical swing on the way down (both worlds take 350 to 450 ms). */
export const CRITICAL_SWING_MS = 450;
/** What a decision takes to become a move (a look, a command, a tick of the server): counted against every mob. */
export const REACTION_MS = 250;
/** Mobs within this of the bot make up the crowd it keeps on one side. */
export const CROWD_RADIUS = 8;
/** How long one step back lasts before the bot looks again. */
export const BACK_OFF_MS = 250;
/** A target that walks towards the bot is waited for (not walked up to) while it came closer within this long. */
export const APPROACH_PATIENCE_MS = 2_500;
/** A hostile target is waited for only within this many blocks. */
const WAIT_RANGE = 10;
/** A mob this close horizontally but out of reach is up in the air after a hit: wait for it to land. */
const AIRBORNE_CLOSE = 2;
/** A watch lasts this long before the bot looks again. */
const WATCH_MS = 100;
/**
 * How far the bot steps in on a burning creeper just out of its reach: a block, walked in the time a player walks one
 * (SimWorld walks whole blocks). A creeper lights its fuse within 3 blocks of the bot (feet to feet) and stands there;
 * the bot's swing reaches 2.85 from its eyes to the creeper's middle, 2.76 across on level ground. So a creeper walking
 * up lights its fuse, on either world, where the bot cannot yet strike it.
 */
const STEP_IN_REACH = 1;
export const STEP_IN_MS = Math.ceil((1000 * STEP_IN_REACH) / PLAYER_WALK_SPEED);
/** A zombie's pace, for kinds the mob rules do not drive. */
const DEFAULT_SPEED = HOSTILE_STATS.zombie!.speed;

export interface FightView {
  /** The bot's feet. */
  feet: Vec3Like;
  /** The mob the step fights. */
  target: EntityInfo;
  /** Every other entity the world reports; only hostile mobs among them are struck or kept at bay, never a player. */
  others: readonly EntityInfo[];
  /** Milliseconds until the held item's next swing is at full charge (0 or less: charged). */
  chargeInMs: number;
  /** Milliseconds since the target last came closer to the bot. */
  targetStalledMs: number;
  /** Back-offs in a row that did not move the bot (a wall behind it): it sidesteps instead. */
  blockedBackOffs: number;
}

export type FightMove =
  | { kind: 'strike'; mob: EntityInfo; style: AttackStyle }
  | { kind: 'back_off'; from: Vec3Like; move: Exclude<UnstuckMove, 'jump'> }
  | { kind: 'close_in'; mob: EntityInfo }
  /** Face a burning creeper just out of reach and walk at it for `ms`: the strike follows at once. */
  | { kind: 'step_in'; mob: EntityInfo; ms: number }
  /** Turn to the mob and let it come (or land): a player watches the mob it waits for. */
  | { kind: 'watch'; mob: EntityInfo; ms: number }
  | { kind: 'wait'; ms: number };

const horizontal = (a: Vec3Like, b: Vec3Like) => Math.hypot(a.x - b.x, a.z - b.z);

/** Blocks the mob must still walk before its melee reaches the bot (its box grown by MELEE_REACH meets the bot's). */
export function contactGap(mob: EntityInfo, feet: Vec3Like): number {
  const reach = mobSize(mob.name).width / 2 + MELEE_REACH + PLAYER_WIDTH / 2;
  return Math.max(0, Math.max(Math.abs(mob.position.x - feet.x), Math.abs(mob.position.z - feet.z)) - reach);
}

/** Whether the mob can walk into melee contact within `ms` (plus the bot's reaction time). */
export function reachesWithin(mob: EntityInfo, feet: Vec3Like, ms: number): boolean {
  const speed = HOSTILE_STATS[mob.name]?.speed ?? DEFAULT_SPEED;
  return contactGap(mob, feet) <= (speed * (Math.max(0, ms) + REACTION_MS)) / 1000;
}

/** The mobs this fight may strike or must watch: the target and every hostile near the bot (never a player). */
export function fighters(view: FightView): EntityInfo[] {
  const hostiles = view.others.filter(
    (mob) => mob.kind === 'hostile' && mob.id !== view.target.id && horizontal(mob.position, view.feet) <= CROWD_RADIUS,
  );
  return [view.target, ...hostiles];
}

/** Where the crowd stands: the middle of the fighters, the bot backs away from it. */
export function crowdCentre(mobs: readonly EntityInfo[]): Vec3Like {
  const sum = mobs.reduce(
    (at, mob) => ({ x: at.x + mob.position.x, y: at.y + mob.position.y, z: at.z + mob.position.z }),
    {
      x: 0,
      y: 0,
      z: 0,
    },
  );
  return { x: sum.x / mobs.length, y: sum.y / mobs.length, z: sum.z / mobs.length };
}

/**
 * How to swing at `mob`: critical when it stays in reach of a jump and no other mob reaches the bot while it is in the
 * air; otherwise sprinting, for the longer knock-back.
 */
export function strikeStyle(mob: EntityInfo, mobs: readonly EntityInfo[], feet: Vec3Like): AttackStyle {
  // A creeper's knock-back must carry it past its defuse range: a critical hit's half as far leaves its fuse burning.
  if (fuseOf(mob)) return 'sprint';
  const jumpedFeet = { ...feet, y: feet.y + JUMP_HEIGHT };
  const staysInReach = attackDistance(jumpedFeet, mob.position) <= STRIKE_REACH;
  const pressed = mobs.some((other) => other.id !== mob.id && reachesWithin(other, feet, CRITICAL_SWING_MS));
  return staysInReach && !pressed ? 'critical' : 'sprint';
}

/** This moment's move: strike, back off, close in, watch the target come or wait for the charge. */
export function nextFightMove(view: FightView): FightMove {
  const mobs = fighters(view);
  const inReach = mobs
    .filter((mob) => attackDistance(view.feet, mob.position) <= STRIKE_REACH)
    .sort(
      (a, b) =>
        Number(lit(b, view.feet)) - Number(lit(a, view.feet)) ||
        horizontal(a.position, view.feet) - horizontal(b.position, view.feet),
    );
  // A creeper whose fuse burns within its defuse range: struck now (the knock-back puts it out), else backed off from;
  // where a back-off got nowhere, stepped in on and struck when a step brings it into reach with the weapon charged.
  // Backing off from where it lit takes 4 blocks in its 1.5 s fuse: on the embedded server (tech-tree world 10, on a
  // hillside) a bot with a charged wooden sword backed off from a creeper 2.8 blocks off, got nowhere, and died of
  // the blast from 15 health. Where the way back is open the back-off stays (stepping in each time the creeper comes
  // back would turn the bot about on every hit, which the flap detector ends as stuck.flap).
  const burning = mobs.filter((mob) => lit(mob, view.feet));
  if (burning.length > 0 && (view.chargeInMs > 0 || !inReach[0] || !lit(inReach[0], view.feet))) {
    const stepIn = view.chargeInMs <= 0 && view.blockedBackOffs > 0;
    const within = stepIn ? burning.find((mob) => inReachAfterStep(mob, view.feet)) : undefined;
    return within ? { kind: 'step_in', mob: within, ms: STEP_IN_MS } : backOff(view, burning, mobs);
  }
  if (view.chargeInMs > 0) return recharge(view, mobs);
  const nearest = inReach[0];
  if (nearest) return { kind: 'strike', mob: nearest, style: strikeStyle(nearest, mobs, view.feet) };
  const { target } = view;
  const away = horizontal(target.position, view.feet);
  // An archer keeps its distance and shoots: it is charged, never waited for.
  const walksUp = target.kind === 'hostile' && !isArcher(target);
  const comesToTheBot = walksUp && away <= WAIT_RANGE && view.targetStalledMs < APPROACH_PATIENCE_MS;
  if (away <= AIRBORNE_CLOSE || comesToTheBot) return { kind: 'watch', mob: target, ms: WATCH_MS };
  return { kind: 'close_in', mob: target };
}

const fuseOf = (mob: EntityInfo) => HOSTILE_STATS[mob.name]?.fuse;

/** Whether a step of STEP_IN_REACH straight at the mob brings it within the swing's reach. */
function inReachAfterStep(mob: EntityInfo, feet: Vec3Like): boolean {
  const away = horizontal(mob.position, feet);
  const step = Math.min(STEP_IN_REACH, away) / Math.max(away, 1e-9);
  const stepped = {
    x: feet.x + (mob.position.x - feet.x) * step,
    y: feet.y,
    z: feet.z + (mob.position.z - feet.z) * step,
  };
  return attackDistance(stepped, mob.position) <= STRIKE_REACH;
}

/** A creeper swelling within its defuse range of the bot: its fuse burns on until it is knocked or walked out of it. */
function lit(mob: EntityInfo, feet: Vec3Like): boolean {
  const fuse = fuseOf(mob);
  return fuse !== undefined && mob.swelling === true && horizontal(mob.position, feet) <= fuse.defuseBeyond;
}

/** A mob that shoots from afar (a skeleton): it never walks into melee, and it backs away from the bot as it shoots. */
const isArcher = (mob: EntityInfo) => HOSTILE_STATS[mob.name]?.bow !== undefined;

/**
 * While the weapon recharges: step away from the walkers that could reach the bot before the swing. Never from an
 * archer: it has no blow to dodge, and every step back is ground it gains; an archer target out of reach is chased
 * through the recharge instead, else the bot waits.
 */
function recharge(view: FightView, mobs: readonly EntityInfo[]): FightMove {
  const pressing = mobs.filter(
    (mob) => mob.kind === 'hostile' && !isArcher(mob) && reachesWithin(mob, view.feet, view.chargeInMs),
  );
  if (pressing.length === 0) {
    const { target } = view;
    const chase = isArcher(target) && horizontal(target.position, view.feet) > AIRBORNE_CLOSE;
    return chase ? { kind: 'close_in', mob: target } : { kind: 'wait', ms: Math.min(view.chargeInMs, 100) };
  }
  return backOff(view, pressing, mobs);
}

/** A step away from the mobs pressing the bot, along the way that leaves it furthest from every mob of the crowd. */
function backOff(view: FightView, pressing: readonly EntityInfo[], mobs: readonly EntityInfo[]): FightMove {
  const moves = ['back', 'left', 'right'] as const;
  const move = moves[view.blockedBackOffs === 0 ? 0 : 1 + ((view.blockedBackOffs - 1) % 2)]!;
  const way = retreat(view.feet, pressing, mobs);
  // The bot faces the point one step against its way, so that stepping back follows it.
  return { kind: 'back_off', from: { x: view.feet.x - way.x, y: view.feet.y, z: view.feet.z - way.z }, move };
}

/** Directions a retreat may take: eight, a compass's. */
const HEADINGS = Array.from({ length: 8 }, (_, i) => ({
  x: Math.cos((i * Math.PI) / 4),
  z: Math.sin((i * Math.PI) / 4),
}));
/** How far ahead a retreat's way is judged. */
const RETREAT_STEP = 1.5;

/**
 * The way to step back (a unit vector): the heading that leaves the bot furthest from the nearest of every mob of the
 * crowd after a step, so that backing away from the mobs pressing it never walks it into another; among equals, the
 * one most directly away from the pressing mobs' centre.
 */
export function retreat(feet: Vec3Like, pressing: readonly EntityInfo[], crowd: readonly EntityInfo[]): Vec3Like {
  const centre = crowdCentre(pressing);
  const awayX = feet.x - centre.x;
  const awayZ = feet.z - centre.z;
  const score = (way: { x: number; z: number }) => {
    const to = { x: feet.x + way.x * RETREAT_STEP, y: feet.y, z: feet.z + way.z * RETREAT_STEP };
    const nearest = Math.min(
      ...crowd.filter((mob) => mob.kind === 'hostile').map((mob) => horizontal(mob.position, to)),
    );
    return Math.round(nearest * 10) / 10 + (way.x * awayX + way.z * awayZ) * 1e-3;
  };
  const best = HEADINGS.reduce((a, b) => (score(b) > score(a) ? b : a));
  return { x: best.x, y: 0, z: best.z };
}
