import { feetCell } from '../contracts/stands-on.js';
import type { FailureCode } from '../contracts/failure-codes.js';
import { blockKey, type Vec3Like, type WorldPort } from '../contracts/world.js';
import type { StrategyKind, UnstuckMoveKind } from '../recovery/strategy.js';
import type { ExecutorPolicy } from './policy.js';
import { waterAround } from './stranded.js';

/*
 * What the world says about the repair rungs for one failure: which cannot
 * apply here and why, the cells a repair must never break, and whether the
 * goal could really be reached by building up to it. The recovery ladder skips
 * what the world rules out, so a hopeless step ends on the world's word, not
 * after every timer has run out.
 */

const AIR = new Set(['air', 'cave_air', 'void_air']);
const isAir = (name: string | undefined) => name === undefined || AIR.has(name);

/** Failures of the path or the body: the same one again, with no progress, means nothing changed. */
export const PATH_CODES: ReadonlySet<FailureCode> = new Set(['no_path', 'stuck.path']);
export const BODY_CODES: ReadonlySet<FailureCode> = new Set(['no_path', 'stuck.path', 'stuck.position', 'stuck.flap']);

const SUPPORT_DEPTH = 16;
const DIG_REACH = 4;
const MAX_PILLAR = 16;

const cell = (p: Vec3Like): Vec3Like => ({ x: Math.floor(p.x), y: Math.floor(p.y), z: Math.floor(p.z) });

/** The point a step is heading for, when its arguments name one (a navigation target or a position). */
export function targetOf(args: unknown): Vec3Like | undefined {
  const candidate =
    (args as { target?: unknown; position?: unknown } | null)?.target ??
    (args as { position?: unknown } | null)?.position;
  const point = candidate as Partial<Vec3Like> | undefined;
  if (point && typeof point.x === 'number' && typeof point.z === 'number')
    return { x: point.x, y: typeof point.y === 'number' ? point.y : Number.NaN, z: point.z };
  return undefined;
}

/** How far the bot is from the target (horizontally when the target names no height); null without a target. */
export function distanceTo(position: Vec3Like, target: Vec3Like | undefined): number | null {
  if (!target) return null;
  const dy = Number.isNaN(target.y) ? 0 : position.y - target.y;
  return Math.hypot(position.x - (target.x + 0.5), dy, position.z - (target.z + 0.5));
}

/**
 * The cells a repair must not break: the step's target (feet and head), the
 * column that holds it up down to the ground, and the policy's protected boxes.
 */
export function isProtected(
  at: Vec3Like,
  target: Vec3Like | undefined,
  world: WorldPort,
  policy: ExecutorPolicy,
): boolean {
  const c = cell(at);
  for (const box of policy.protect) {
    if (
      c.x >= Math.min(box.from.x, box.to.x) &&
      c.x <= Math.max(box.from.x, box.to.x) &&
      c.y >= Math.min(box.from.y, box.to.y) &&
      c.y <= Math.max(box.from.y, box.to.y) &&
      c.z >= Math.min(box.from.z, box.to.z) &&
      c.z <= Math.max(box.from.z, box.to.z)
    )
      return true;
  }
  if (!target || Number.isNaN(target.y)) return false;
  const t = cell(target);
  if (c.x !== t.x || c.z !== t.z) return false;
  if (c.y === t.y || c.y === t.y + 1) return true;
  // The support: every cell below the target down to the first air gap (a pillar's whole height).
  for (let y = t.y - 1; y >= t.y - SUPPORT_DEPTH; y--) {
    if (isAir(world.blockAt({ x: t.x, y, z: t.z })?.name)) return false;
    if (y === c.y) return true;
  }
  return false;
}

/**
 * The cells dig out may clear: a two-high opening through the first obstruction
 * on the straight line toward the goal (within reach), else the cells around
 * the bot; never a protected one, never one no tool can break.
 */
export function digOutCells(world: WorldPort, target: Vec3Like | undefined, policy: ExecutorPolicy): Vec3Like[] {
  const at = world.position();
  const feet = feetCell(at);
  const candidates: Vec3Like[] = [];
  const dx = target ? target.x + 0.5 - at.x : 0;
  const dz = target ? target.z + 0.5 - at.z : 0;
  const length = Math.hypot(dx, dz);
  if (length > 0) {
    for (let step = 1; step <= DIG_REACH; step++) {
      const x = Math.floor(at.x + (dx / length) * step);
      const z = Math.floor(at.z + (dz / length) * step);
      candidates.push({ x, y: feet.y, z }, { x, y: feet.y + 1, z });
    }
  } else {
    for (const [ox, oz] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const)
      for (const dy of [0, 1]) candidates.push({ x: feet.x + ox, y: feet.y + dy, z: feet.z + oz });
  }
  const seen = new Set<string>();
  return candidates.filter((c) => {
    const key = blockKey(c);
    if (seen.has(key)) return false;
    seen.add(key);
    const block = world.blockAt(c);
    return block !== null && block.diggable && !isAir(block.name) && !isProtected(c, target, world, policy);
  });
}

/** A way to really reach a goal above the ground: stand in its column, then pillar up to it. */
export interface ReachPlan {
  stand: Vec3Like;
  height: number;
}

/** Null, with the reason, when building up cannot bring the bot to the target. */
export function reachPlan(world: WorldPort, target: Vec3Like | undefined): ReachPlan | { none: string } {
  if (!target || Number.isNaN(target.y)) return { none: 'the step names no height to build up to' };
  const t = cell(target);
  let ground: number | null = null;
  for (let y = t.y - 1; y >= t.y - MAX_PILLAR - 1; y--) {
    if (!isAir(world.blockAt({ x: t.x, y, z: t.z })?.name)) {
      ground = y;
      break;
    }
  }
  if (ground === null)
    return { none: `no ground within ${MAX_PILLAR + 1} blocks below (${t.x}, ${t.y}, ${t.z}) to build up from` };
  const height = t.y - (ground + 1);
  if (height <= 0)
    return { none: `the goal (${t.x}, ${t.y}, ${t.z}) already stands on ground: building up cannot help` };
  for (let y = ground + 1; y <= t.y + 1; y++) {
    const name = world.blockAt({ x: t.x, y, z: t.z })?.name;
    if (!isAir(name)) return { none: `${name} at (${t.x}, ${y}, ${t.z}) leaves no room to build up to the goal` };
  }
  return { stand: { x: t.x, y: ground + 1, z: t.z }, height };
}

/** A neighbouring column the bot could step into (two cells of air). */
export function hasFreeNeighbour(world: WorldPort): boolean {
  const feet = feetCell(world.position());
  return [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ].some(([ox, oz]) =>
    [0, 1].every((dy) => isAir(world.blockAt({ x: feet.x + ox!, y: feet.y + dy, z: feet.z + oz! })?.name)),
  );
}

export interface FailureSituation {
  code: FailureCode;
  target: Vec3Like | undefined;
  /** The failed attempt brought the bot at least a block closer to its target (or moved it, without one). */
  progressed: boolean;
  /** The registry has the capabilities the moves run as (dig_block, pillar_up, navigate). */
  verbs: { dig: boolean; pillar: boolean; navigate: boolean };
}

/** The rungs the world rules out for this failure, each with its reason. */
export function unfitRungs(
  world: WorldPort,
  policy: ExecutorPolicy,
  s: FailureSituation,
): Partial<Record<StrategyKind | UnstuckMoveKind, string>> {
  const unfit: Partial<Record<StrategyKind | UnstuckMoveKind, string>> = {};
  const path = PATH_CODES.has(s.code);
  const canMove = hasFreeNeighbour(world);
  if (path && !s.progressed)
    unfit.repath = 'the path search already found no way to the goal as asked from here, and nothing has changed since';
  if (path && canMove) unfit.jump = unfit.back_up = 'the bot can move: the way, not its body, is blocked';
  const water = waterAround(world);
  if (!s.verbs.dig) unfit.dig_out = 'no dig_block capability is registered';
  else if (water)
    unfit.dig_out = `the bot is in water at ${water}: a dig there is five times slower and opens no way a swimmer can climb`;
  else if (digOutCells(world, s.target, policy).length === 0)
    unfit.dig_out = 'no diggable, unprotected block stands around the bot or between it and the goal';
  const above = s.target && !Number.isNaN(s.target.y) ? s.target.y - feetCell(world.position()).y : 0;
  if (!s.verbs.pillar) unfit.pillar_up = 'no pillar_up capability is registered';
  else if (path && canMove && above < 2)
    unfit.pillar_up = 'the bot can move and the goal is not above it: rising cannot bring it closer';
  const reach = path
    ? reachPlan(world, s.target)
    : { none: 'only a path failure is repaired by building up to the goal' };
  if ('none' in reach) unfit.subgoal = reach.none;
  else if (!s.verbs.navigate || !s.verbs.pillar)
    unfit.subgoal = 'building up to the goal needs the navigate and pillar_up capabilities';
  else if (canMove)
    unfit.pillar_up ??=
      "rising where the bot stands misses the goal: the sub-goal rung builds up in the goal's own column";
  return unfit;
}
