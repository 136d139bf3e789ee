/** A block position in a world; the world is compared by identity. */
export interface Placed {
  world: unknown;
  position: { x: number; z: number };
}

/** Cells as wide as a chunk column: a tracking range covers a few of them whatever the number of entities. */
const CELL = 16;

/**
 * The entities of a server by the chunk column each stood in when last placed, so "who is within r blocks of here"
 * reads the few columns around instead of every entity on the server. An entity that moved since it was last placed
 * is found as long as it moved less than the `slack` the grid was made with, which the caller keeps true by placing
 * an entity again whenever it has moved that far.
 */
export class EntityGrid<E extends Placed> {
  private readonly cells = new Map<string, Set<E>>();
  private readonly cellOf = new Map<E, string>();

  constructor(private readonly slack: number) {}

  /** Files `entity` under the column it stands in now. */
  place(entity: E): void {
    const key = keyOf(entity.world, cellIndex(entity.position.x), cellIndex(entity.position.z));
    const old = this.cellOf.get(entity);
    if (old === key) return;
    if (old !== undefined) this.removeFrom(old, entity);
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = new Set()));
    cell.add(entity);
    this.cellOf.set(entity, key);
  }

  remove(entity: E): void {
    const old = this.cellOf.get(entity);
    if (old === undefined) return;
    this.removeFrom(old, entity);
    this.cellOf.delete(entity);
  }

  /**
   * Every entity filed in a column that may hold a point within `radius` blocks (horizontally) of `at`, allowing for
   * the slack: a superset the caller filters by exact distance.
   */
  *near(world: unknown, at: { x: number; z: number }, radius: number): Generator<E> {
    const reach = radius + this.slack;
    const [x0, x1] = [cellIndex(at.x - reach), cellIndex(at.x + reach)];
    const [z0, z1] = [cellIndex(at.z - reach), cellIndex(at.z + reach)];
    for (let x = x0; x <= x1; x++) {
      for (let z = z0; z <= z1; z++) {
        const cell = this.cells.get(keyOf(world, x, z));
        if (cell) yield* cell;
      }
    }
  }

  private removeFrom(key: string, entity: E): void {
    const cell = this.cells.get(key);
    cell?.delete(entity);
    if (cell?.size === 0) this.cells.delete(key);
  }
}

const cellIndex = (coordinate: number) => Math.floor(coordinate / CELL);

/** Worlds get a number each the first time they are seen, so a cell's key is a plain string. */
const worldIds = new WeakMap<object, number>();
let nextWorldId = 0;

function keyOf(world: unknown, x: number, z: number): string {
  let id = 0;
  if (typeof world === 'object' && world !== null) {
    id = worldIds.get(world) ?? ++nextWorldId;
    worldIds.set(world, id);
  }
  return `${id}:${x}:${z}`;
}
