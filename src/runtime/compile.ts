import { NODE_STATES, type NodeStateChange } from './hooks.js';
import { resolveBranch } from './lint.js';
import {
  isComposite,
  type AttributeDefinition,
  type NodeArgument,
  type NodeType,
  type TreeFile,
  type TreeNodeDefinition,
} from './tree-definition.js';
import { parseWatchdogArguments, type WatchdogKind, type WatchdogSpec } from './watchdog-spec.js';

/** One node of a tree with branches inlined, as the runtime sees it. */
export interface CompiledNode {
  /** Pre-order position; keys the node's agent functions. */
  readonly index: number;
  /** e.g. `dig_block/selector/1:retry/sequence/1:action(dig)`; stable across runs. */
  readonly path: string;
  readonly type: Exclude<NodeType, 'branch'>;
  readonly name?: string;
  readonly args: readonly NodeArgument[];
  readonly file: string;
  readonly line: number;
  readonly parent?: CompiledNode;
  readonly children: CompiledNode[];
  readonly watchdogs: readonly WatchdogSpec[];
  /** `while(watchdog, …) then succeed`: a trip ends the node as succeeded (the run still records the trip). */
  readonly watchdogSucceedsOnTrip: boolean;
  readonly retryableGuard: boolean;
  /** User guard conditions (not watchdog/retryable), by attribute kind. */
  readonly guards: readonly AttributeDefinition[];
  /** Indexes of this node and its ancestors that carry a watchdog or retryable guard. */
  readonly watchedBy: readonly number[];
  /** The nearest enclosing retry node, for backoff. */
  readonly retryAncestor?: number;
  /** Every change of this node's state, at `from * 4 + to` in NODE_STATES order: recording one allocates nothing. */
  readonly stateChanges: readonly NodeStateChange[];
}

function internStateChanges(nodePath: string, nodeType: string): NodeStateChange[] {
  return NODE_STATES.flatMap((from) => NODE_STATES.map((to) => Object.freeze({ nodePath, nodeType, from, to })));
}

export interface CompiledTree {
  readonly name: string;
  readonly file: string;
  readonly nodes: readonly CompiledNode[];
  /** The mistreevous root definition; every call is renamed to a per-node agent key. */
  readonly definition: Record<string, unknown>;
  /** Watchdog kinds declared anywhere in the tree (step-level defaults skip them). */
  readonly declaredKinds: ReadonlySet<WatchdogKind>;
}

/** Agent property names: one per node and role, so a call knows which node made it. */
export const agentKey = {
  leaf: (index: number) => `n${index}`,
  whileGuard: (index: number) => `w${index}`,
  untilGuard: (index: number) => `u${index}`,
};

function label(node: TreeNodeDefinition): string {
  if (node.type === 'action' || node.type === 'condition') return `${node.type}(${node.name})`;
  return node.type;
}

/** Inlines branches and numbers nodes. Assumes the trees passed lint. */
export function compileTree(files: ReadonlyMap<string, TreeFile>, file: TreeFile): CompiledTree {
  const nodes: CompiledNode[] = [];
  const declaredKinds = new Set<WatchdogKind>();

  const build = (
    source: TreeFile,
    node: TreeNodeDefinition,
    path: string,
    parent: CompiledNode | undefined,
  ): { compiled: CompiledNode; json: Record<string, unknown> } => {
    if (node.type === 'branch') {
      const target = resolveBranch(files, source, node.name!)!;
      return build(
        target.file,
        target.root.children[0]!,
        `${path}branch(${node.name})/${label(target.root.children[0]!)}`,
        parent,
      );
    }
    const index = nodes.length;
    const watchdogs: WatchdogSpec[] = [];
    let retryableGuard = false;
    let watchdogSucceedsOnTrip = false;
    const guards: AttributeDefinition[] = [];
    const json: Record<string, unknown> = { type: node.type === 'wait' ? 'action' : node.type };
    for (const attribute of node.attributes) {
      if (attribute.kind !== 'while' && attribute.kind !== 'until') continue;
      if (attribute.call === 'watchdog') {
        // Not a mistreevous guard: watchdogs run on clock timers, and a trip ends the node
        // (TreeRun.onNodeWatchdogTrip).
        const parsed = parseWatchdogArguments(attribute.args);
        if (parsed.ok) watchdogs.push(...parsed.specs);
        watchdogSucceedsOnTrip = attribute.succeedOnAbort;
        continue;
      }
      if (attribute.call === 'retryable') retryableGuard = true;
      else guards.push(attribute);
      const key = attribute.kind === 'while' ? agentKey.whileGuard(index) : agentKey.untilGuard(index);
      json[attribute.kind] = { call: key, succeedOnAbort: attribute.succeedOnAbort };
    }
    for (const spec of watchdogs) declaredKinds.add(spec.kind);
    const watched = watchdogs.length > 0 || retryableGuard;
    const compiled: CompiledNode = {
      index,
      path,
      type: node.type,
      name: node.name,
      args: node.args,
      file: source.file,
      line: node.line,
      parent,
      children: [],
      watchdogs,
      watchdogSucceedsOnTrip,
      retryableGuard,
      guards,
      watchedBy: [...(watched ? [index] : []), ...(parent?.watchedBy ?? [])],
      retryAncestor: parent?.type === 'retry' ? parent.index : parent?.retryAncestor,
      stateChanges: internStateChanges(path, node.type),
    };
    nodes.push(compiled);
    if (node.type === 'action' || node.type === 'condition' || node.type === 'wait') {
      json.call = agentKey.leaf(index);
    } else if (node.type === 'repeat' || node.type === 'retry') {
      if (node.args.length > 0)
        json[node.type === 'repeat' ? 'iterations' : 'attempts'] = node.args.length === 1 ? node.args[0] : node.args;
    } else if (node.type === 'lotto' && node.args.length > 0) {
      json.weights = node.args;
    }
    const childJson = node.children.map((child, i) => {
      const segment = isComposite(node.type) ? `${i}:` : '';
      const childPath = `${path}/${segment}${child.type === 'branch' ? '' : label(child)}`;
      const built = build(source, child, childPath, compiled);
      compiled.children.push(built.compiled);
      return built.json;
    });
    if (isComposite(node.type)) json.children = childJson;
    else if (childJson.length === 1) json.child = childJson[0];
    return { compiled, json };
  };

  const { json } = build(file, file.main!, file.name, undefined);
  return { name: file.name, file: file.file, nodes, definition: json, declaredKinds };
}
