import type { BehaviourTree, State } from 'mistreevous';

/** A guard as mistreevous's GuardPath evaluates it. */
interface PathGuard {
  isSatisfied(agent: unknown): boolean;
  readonly succeedOnAbort: boolean;
}

/** The parts of a mistreevous 4.3.1 node instance the tap relies on (not public API). */
interface MistreevousNode {
  uid: string;
  _state: State;
  /** Outermost first, the guards mistreevous checks at the start of each update of this node; ours alone. */
  _guardPath: { nodes: { node: MistreevousNode; guards: PathGuard[] }[] };
  setState(value: State): void;
  getChildren?: () => MistreevousNode[];
}

export type StateChangeListener = (index: number, previous: State, state: State) => void;

/** What the runtime does to a tapped tree's nodes, by pre-order index. */
export interface TappedNodes {
  /**
   * Makes the node's next update fail a guard, so mistreevous itself aborts
   * its running subtree and ends it (failed, or succeeded when
   * `succeeded`) inside its parent's update, exactly as for a guard
   * declared in the tree: a retry counts the attempt, a repeat the iteration.
   */
  endAtNextUpdate(index: number, succeeded: boolean): void;
  /** Withdraws a pending end: the node stopped running before its next update. */
  cancelEnd(index: number): void;
}

/**
 * Routes every node state change of a tree to `listener`, with the node's
 * pre-order index. The public `onNodeStateChange` option builds a details
 * object (with each guard's details) on every change, about 22 changes per
 * step of an 11-node tree. Each mistreevous node already holds its own
 * `setState` closure; replacing that value (rather than adding an
 * `onStateChanged` property) keeps the node's hidden class, so mistreevous's
 * shared code stays as fast for these trees as for bare ones. The walk is
 * checked against the public node details, so a mistreevous whose internals
 * differ fails at construction, never silently.
 */
export function tapNodeStates(tree: BehaviourTree, nodeCount: number, listener: StateChangeListener): TappedNodes {
  const root = (tree as unknown as { _rootNode?: MistreevousNode })._rootNode;
  const instances: MistreevousNode[] = [];
  const walk = (node: MistreevousNode): void => {
    instances.push(node);
    for (const child of node.getChildren?.() ?? []) walk(child);
  };
  if (root) walk(root);
  const uids: string[] = [];
  const walkDetails = (details: { id: string; children?: unknown[] }): void => {
    uids.push(details.id);
    for (const child of (details.children ?? []) as { id: string; children?: unknown[] }[]) walkDetails(child);
  };
  walkDetails(tree.getTreeNodeDetails());
  const layoutMatches =
    instances.length === nodeCount &&
    uids.length === nodeCount &&
    instances.every(
      (node, i) =>
        node.uid === uids[i] &&
        Object.hasOwn(node, 'setState') &&
        typeof node._state === 'string' &&
        Array.isArray(node._guardPath?.nodes),
    );
  if (!layoutMatches) {
    throw new Error(
      `mistreevous's node internals are not the 4.3.1 layout the runtime taps (found ${instances.length} of ${nodeCount} nodes); pin mistreevous to 4.3.1`,
    );
  }
  instances.forEach((node, index) => {
    node.setState = (state) => {
      const previous = node._state;
      node._state = state;
      if (previous !== state) listener(index, previous, state);
    };
  });
  const pendingEnds = new Map<number, { node: MistreevousNode; guards: PathGuard[] }>();
  const withdraw = (index: number): void => {
    const entry = pendingEnds.get(index);
    if (!entry) return;
    pendingEnds.delete(index);
    const path = instances[index]!._guardPath.nodes;
    path.splice(path.indexOf(entry), 1);
  };
  return {
    endAtNextUpdate(index, succeeded) {
      withdraw(index);
      const node = instances[index]!;
      // Last in the node's own path: the guards of its ancestors, checked first, still win.
      const entry = { node, guards: [{ succeedOnAbort: succeeded, isSatisfied: () => (withdraw(index), false) }] };
      pendingEnds.set(index, entry);
      node._guardPath.nodes.push(entry);
    },
    cancelEnd(index) {
      if (pendingEnds.size > 0) withdraw(index);
    },
  };
}
