import type { CompiledNode, CompiledTree } from '../runtime/compile.js';

/** A tree as the monitor draws it: every node with the path its state changes name, and its parent. */
export interface TreeShape {
  name: string;
  file: string;
  nodes: {
    path: string;
    parent: string | null;
    type: string;
    label: string;
    line: number;
    watchdogs: { kind: string; limitMs: number }[];
  }[];
}

function label(node: CompiledNode): string {
  const args = node.args.map((arg) => (typeof arg === 'object' && arg !== null ? `$${arg.$}` : JSON.stringify(arg)));
  if (node.name !== undefined && node.type !== 'root') return `${node.type} ${[node.name, ...args].join(' ')}`;
  return args.length > 0 ? `${node.type} ${args.join(' ')}` : node.type;
}

export function treeShape(tree: CompiledTree): TreeShape {
  return {
    name: tree.name,
    file: tree.file,
    nodes: tree.nodes.map((node) => ({
      path: node.path,
      parent: node.parent?.path ?? null,
      type: node.type,
      label: node.type === 'root' ? `root: ${tree.name}` : label(node),
      line: node.line,
      watchdogs: node.watchdogs.map((w) => ({ kind: w.kind, limitMs: w.limitMs })),
    })),
  };
}
