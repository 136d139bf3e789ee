import { getJson } from './connection.js';
import type { TreeShape } from './tree-graph.js';

const shapes = new Map<string, Promise<TreeShape>>();

/** A tree's shape, fetched once per page. */
export function shapeOf(name: string): Promise<TreeShape> {
  let shape = shapes.get(name);
  if (!shape) {
    shape = getJson<{ tree: TreeShape }>(`/api/trees/${encodeURIComponent(name)}`).then((body) => body.tree);
    shapes.set(name, shape);
  }
  return shape;
}
