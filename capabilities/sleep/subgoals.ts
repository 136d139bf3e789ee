import {
  BED_BLOCKS,
  type GuardContext,
  type MissingPrecondition,
  type PlanStepInput,
  type Vec3Like,
  type WorldPort,
} from 'verbtree';

const AIR = new Set(['air', 'cave_air', 'void_air']);
const SIDES = [
  { x: 1, z: 0 },
  { x: -1, z: 0 },
  { x: 0, z: 1 },
  { x: 0, z: -1 },
];

/**
 * A spot for a bed beside the bot: its foot next to the bot and its head one further out (a placed bed
 * lies along the bot's line of sight), both open, on ground. Null when there is none.
 */
export function bedSpot(world: WorldPort, position: Vec3Like): Vec3Like | null {
  const feet = { x: Math.floor(position.x), y: Math.floor(position.y), z: Math.floor(position.z) };
  const open = (cell: Vec3Like) => AIR.has(world.blockAt(cell)?.name ?? '');
  const onGround = (cell: Vec3Like) =>
    open(cell) && !open({ ...cell, y: cell.y - 1 }) && world.blockAt({ ...cell, y: cell.y - 1 }) !== null;
  for (const { x, z } of SIDES) {
    const foot = { x: feet.x + x, y: feet.y, z: feet.z + z };
    if (onGround(foot) && onGround({ x: foot.x + x, y: foot.y, z: foot.z + z })) return foot;
  }
  return null;
}

/**
 * No bed in sight: one the pack holds is placed beside the bot. A bed is not crafted here (wool needs shears or sheep).
 */
export function sleepSubgoals(
  missing: MissingPrecondition,
  _args: unknown,
  { world, observation }: GuardContext,
): PlanStepInput[] | null {
  if (missing.predicate !== 'near_block' || missing.detail.block !== 'bed') return null;
  const carried = BED_BLOCKS.find((bed) => (observation.inventory[bed] ?? 0) > 0);
  const spot = carried ? bedSpot(world, observation.position) : null;
  if (!carried || !spot) return null;
  return [{ stepId: 'subgoal-place-bed', type: 'place_block', args: { position: spot, item: carried } }];
}
