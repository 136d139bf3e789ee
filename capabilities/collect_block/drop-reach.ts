import { isSolidBlock, type Vec3Like, type WorldPort } from 'verbtree';

/** How far a drop is followed down; below that it is taken to rest where it was. */
const MAX_FALL = 64;
/** What a body cannot stand in even though it is not solid. */
const UNSTANDABLE = new Set(['water', 'lava', 'fire', 'soul_fire', 'bubble_column']);

/**
 * Whether the drop of the block at `cell`, once dug, comes to rest where a body can stand beside it: a cell within
 * a diagonal of where it rests (a step up or down included), with something solid under it and room for feet and
 * head, as pickUp's first walk asks. An ore dug out of a wall above the bot's head leaves its drop in the nook, two
 * blocks up, where no walk ends near enough for any world to hand it over; seen on generated terrain, three such
 * drops in a row tripped the path watchdog (stuck.path) and the step was retried. Such a block is dug only when no
 * other is left.
 */
export function dropLandsWithinReach(world: Pick<WorldPort, 'blockAt'>, cell: Vec3Like): boolean {
  const dug = (at: Vec3Like) => at.x === cell.x && at.y === cell.y && at.z === cell.z;
  const name = (at: Vec3Like) => (dug(at) ? 'air' : world.blockAt(at)?.name);
  const solid = (at: Vec3Like) => {
    const block = name(at);
    return block === undefined || isSolidBlock(block);
  };
  const rest = { ...cell };
  for (let fall = 0; fall < MAX_FALL && !solid({ ...rest, y: rest.y - 1 }); fall++) rest.y--;
  const open = (at: Vec3Like) => {
    const block = name(at);
    return block !== undefined && !isSolidBlock(block) && !UNSTANDABLE.has(block);
  };
  const standable = (at: Vec3Like) =>
    open(at) &&
    open({ ...at, y: at.y + 1 }) &&
    name({ ...at, y: at.y - 1 }) !== undefined &&
    solid({ ...at, y: at.y - 1 });
  for (let dx = -1; dx <= 1; dx++)
    for (let dy = -1; dy <= 1; dy++)
      for (let dz = -1; dz <= 1; dz++)
        if (dx * dx + dy * dy + dz * dz <= 2 && standable({ x: rest.x + dx, y: rest.y + dy, z: rest.z + dz }))
          return true;
  return false;
}
