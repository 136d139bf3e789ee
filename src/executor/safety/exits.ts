import type { Vec3Like } from '../../contracts/world.js';
import { canStand, type MobTerrain } from '../../world/mob-rules/index.js';
import { blocksMovement } from '../../world/mob-rules/terrain.js';
import { isVanillaDiggable } from '../../world/sim/block-data.js';
import { SIDES } from './encounter.js';
import { cell } from './responses.js';
import type { ShelterVerb } from './shelters.js';

/* The ground cell outside a shelter that leave_shelter steps out to once the walkers left. */

/** Where leave_shelter steps out to and the shelter's way it takes there, or why there is no way out. */
export type ExitFound = { to: Vec3Like; by: ShelterVerb } | { none: string };

export interface ExitContext {
  /** The last threats' centre: the way out on the side away from it comes first. */
  away?: Vec3Like;
  /** The blocks the bot holds to climb on (climbingBlockCount): how high it can rise in its hole. */
  blocks: number;
}

/** How far up out of a hole the search looks, climbing or cutting stairs: beyond it the hole is a shaft. */
export const HOLE_EXIT_REACH = 8;

/**
 * Where leave_shelter steps out to, on the side away from `away` when there is a choice: down a pillar, its foot (the
 * lowest block of the column with nothing beside it); walled in or dug in, first through a side at its feet, two cells
 * out (a wall under a tree's leaves reads as a hole: server world 10 walled itself in there and sat out the job), then
 * up: the lowest cell beside it it can climb to on its blocks, or else the top of a staircase it cuts up and out
 * (holeExit; a hole a block deeper than dig_in digs, its cover out of sight, reads as walled). `none` says why there
 * is no way out.
 */
export function wayOutOf(shelter: ShelterVerb, terrain: MobTerrain, at: Vec3Like, context: ExitContext): ExitFound {
  const feet = cell(at);
  if (shelter === 'pillar_up') {
    let y = feet.y;
    while (y > feet.y - 64 && isLoneBlock(terrain, feet.x, y - 1, feet.z)) y--;
    return y < feet.y
      ? { to: { ...feet, y }, by: shelter }
      : { none: 'the bot finds no ground at the foot of its pillar' };
  }
  const to = sidesAwayFirst(feet, context.away)
    .filter(([dx, dz]) =>
      [0, 1].every((up) => !stopsDigging(terrain, { x: feet.x + dx, y: feet.y + up, z: feet.z + dz })),
    )
    .map(([dx, dz]) => ({ ...feet, x: feet.x + 2 * dx, z: feet.z + 2 * dz }))
    .find((c) => canStand(terrain, c.x, c.y, c.z));
  if (to) return { to, by: 'wall_in' };
  const up = holeExit(terrain, feet, context);
  return 'to' in up ? up : { none: `no ground two cells out at its feet on any side, and ${up.none}` };
}

/**
 * The way out of a hole, as a player gets out of one: first climbing (a block placed under the feet per block risen,
 * the cover dug) to the lowest standable cell beside the hole the bot's blocks reach; when there is none, a staircase
 * cut up and out (a step up per cell out) to the first cell that stands in the open. Each searched on the sides away
 * from the threats first. `none` names, per side, what stops the staircase: a liquid, a block no tool breaks, a step
 * with no floor, or the reach.
 */
function holeExit(terrain: MobTerrain, feet: Vec3Like, { away, blocks }: ExitContext): ExitFound {
  const sides = sidesAwayFirst(feet, away);
  const rise = Math.min(blocks, HOLE_EXIT_REACH);
  const cover = { ...feet, y: feet.y + 2 };
  const coverStops = stopsDigging(terrain, cover);
  for (const side of coverStops ? [] : sides) {
    const to = climbTo(terrain, feet, side, rise);
    if (to) return { to, by: 'dig_in' };
  }
  if (coverStops) return { none: `the hole's cover cannot be opened: ${coverStops}` };
  const stops: string[] = [];
  for (const side of sides) {
    const stairs = stairsTo(terrain, feet, side);
    if ('to' in stairs) return stairs;
    stops.push(`${sideName(side)}: ${stairs.none}`);
  }
  const climb = rise === 0 ? 'no block to climb on' : `no ground beside it within ${rise + 1} blocks up`;
  return { none: `the hole has ${climb} and no staircase out (${stops.join('; ')})` };
}

/** The lowest cell beside the hole on `side` the bot stands on after rising at most `rise` blocks over open air. */
function climbTo(terrain: MobTerrain, feet: Vec3Like, [dx, dz]: Side, rise: number): Vec3Like | null {
  // At rise 0 the bot steps up one block straight from the bottom: the cover opened gives the jump its headroom.
  for (let risen = 0; risen <= rise; risen++) {
    const to = { x: feet.x + dx, y: feet.y + 1 + risen, z: feet.z + dz };
    // The column over the cover it rises through, and the cell over it the body passes on its step out.
    if (risen > 0 && blocksMovement(terrain.block(feet.x, to.y + 1, feet.z))) return null;
    if (canStand(terrain, to.x, to.y, to.z)) return to;
  }
  return null;
}

/**
 * A staircase out on `side`: step n stands a cell out and a block up per step (feet.y + n), cut through its two body
 * cells and the cell over the step before (the jump's headroom, the cover for the first). It ends at the first step
 * that stands in the open as it is (nothing to cut, the sky over its head): the ground outside.
 */
function stairsTo(terrain: MobTerrain, feet: Vec3Like, [dx, dz]: Side): ExitFound {
  for (let n = 1; n <= HOLE_EXIT_REACH; n++) {
    const step = { x: feet.x + dx * n, y: feet.y + n, z: feet.z + dz * n };
    const cut = [{ x: step.x - dx, y: step.y + 1, z: step.z - dz }, step, { ...step, y: step.y + 1 }];
    for (const c of cut) {
      const stop = stopsDigging(terrain, c);
      if (stop) return { none: stop };
    }
    if (!blocksMovement(terrain.block(step.x, step.y - 1, step.z))) return { none: `no floor under ${at(step)}` };
    if (canStand(terrain, step.x, step.y, step.z) && !blocksMovement(terrain.block(step.x, step.y + 2, step.z)))
      return { to: step, by: 'dig_in' };
  }
  return { none: `no open ground within ${HOLE_EXIT_REACH} steps up` };
}

/** Why the bot cannot dig (or pass) `c`: a liquid in it or pouring in from above, or a block no tool breaks. */
function stopsDigging(terrain: MobTerrain, c: Vec3Like): string | null {
  for (const y of [c.y, c.y + 1]) {
    const name = terrain.block(c.x, y, c.z);
    if (name === 'water' || name === 'lava') return `${name} at ${at({ ...c, y })}`;
  }
  const name = terrain.block(c.x, c.y, c.z);
  if (name === null) return `${at(c)} is not loaded`;
  if (blocksMovement(name) && !isVanillaDiggable(name)) return `${name} at ${at(c)}, which no tool breaks`;
  return null;
}

type Side = readonly [number, number];

/** The four sides, the one facing farthest from `away` first. */
function sidesAwayFirst(feet: Vec3Like, away?: Vec3Like): Side[] {
  const distance = ([dx, dz]: Side) => (away ? Math.hypot(feet.x + dx + 0.5 - away.x, feet.z + dz + 0.5 - away.z) : 0);
  return [...SIDES].sort((a, b) => distance(b) - distance(a));
}

const sideName = ([dx, dz]: Side) => (dx > 0 ? '+x' : dx < 0 ? '-x' : dz > 0 ? '+z' : '-z');
const at = (c: Vec3Like) => `(${c.x}, ${c.y}, ${c.z})`;

/** A solid block with nothing that blocks movement on any of its four sides: a pillar's block. */
function isLoneBlock(terrain: MobTerrain, x: number, y: number, z: number): boolean {
  return (
    blocksMovement(terrain.block(x, y, z)) &&
    SIDES.every(([dx, dz]) => !blocksMovement(terrain.block(x + dx, y, z + dz)))
  );
}
