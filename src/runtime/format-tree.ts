import type { CompiledNode, CompiledTree } from './compile.js';
import type { NodeState } from './hooks.js';

function describe(node: CompiledNode): string {
  const args = node.args.map((arg) => (typeof arg === 'object' && arg !== null ? `$${arg.$}` : JSON.stringify(arg)));
  const head =
    node.name !== undefined && node.type !== 'root'
      ? `${node.type} [${[node.name, ...args].join(', ')}]`
      : `${node.type}${args.length ? ` [${args.join(', ')}]` : ''}`;
  const guards = [
    ...node.watchdogs.map((w) => `watchdog ${w.kind} ${w.limitMs}ms`),
    ...(node.retryableGuard ? ['while(retryable)'] : []),
    ...node.guards.map((g) => `${g.kind}(${g.call})`),
  ];
  const branch = /branch\(([^)]+)\)\/[^/]+$/.exec(node.path)?.[1];
  const text = branch === undefined ? head : `branch [${branch}] -> ${head}`;
  return guards.length ? `${text}  {${guards.join('; ')}}` : text;
}

/** A tree as indented text; with `states` (node path -> last state of a recorded run), each node's state. */
export function formatTree(tree: CompiledTree, states?: ReadonlyMap<string, NodeState>): string {
  const lines = [`${tree.name}  (${tree.file})`];
  const visit = (node: CompiledNode, depth: number): void => {
    const state = states ? `  = ${states.get(node.path) ?? 'not reached'}` : '';
    lines.push(`${'  '.repeat(depth)}${describe(node)}${state}  :${node.line}`);
    for (const child of node.children) visit(child, depth + 1);
  };
  visit(tree.nodes[0]!, 1);
  return lines.join('\n');
}
