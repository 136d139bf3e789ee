import { useEffect, useState } from 'preact/hooks';
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

/**
 * The shape of the tree named, once fetched. Answers may come back out of order (the tree changes while an
 * earlier one is still on its way): an answer for a tree no longer asked for is dropped, never drawn.
 */
export function useShape(name: string | undefined): TreeShape | null {
  const [shape, setShape] = useState<TreeShape | null>(null);
  useEffect(() => {
    if (name === undefined) return;
    let current = true;
    shapeOf(name).then(
      (found) => current && setShape(found),
      () => current && setShape(null),
    );
    return () => void (current = false);
  }, [name]);
  return shape?.name === name ? shape : null;
}
