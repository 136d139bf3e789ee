/**
 * How near (blocks, each of x and z) pathfinder's bot must come to a path node to call it reached
 * (mineflayer-pathfinder's `monitorMovement`: |dx| <= 0.35 and |dz| <= 0.35).
 */
export const PATHFINDER_ARRIVAL_TOLERANCE = 0.35;

/**
 * Moves each node of a path inward, where needed, so that every point within pathfinder's arrival tolerance of it lies
 * in the node's own cell. Pathfinder puts a node on a block with an off-centre top (a young cocoa pod hangs 0.06 to
 * 0.31 into its cell) halfway between the cell's centre and that top's centre: 0.34 from the cell's edge. A bot coming
 * from that side is then called arrived while still in the cell before it, and pathfinder's stop re-centres it there:
 * the path is spent, the goal never reported reached, and the walk stalls until the stall timer ends it. Moved by at
 * most 0.01 for such a node (none for the usual centred ones), the walk is judged in the right cell.
 */
export function keepNodesInsideTheirCells(path: { x: number; z: number }[]): void {
  for (const node of path) {
    node.x = insideCell(node.x);
    node.z = insideCell(node.z);
  }
}

/** Beyond the tolerance by a hair, so that a bot exactly on the cell's edge is not called arrived by rounding. */
const INSET = PATHFINDER_ARRIVAL_TOLERANCE + 1e-6;

function insideCell(coordinate: number): number {
  const cell = Math.floor(coordinate);
  return Math.min(cell + 1 - INSET, Math.max(cell + INSET, coordinate));
}
