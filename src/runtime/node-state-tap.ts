import { State, type BehaviourTree } from 'mistreevous';

/** The parts of a mistreevous 4.3.1 node instance the tap relies on (not public API). */
interface MistreevousNode {
  uid: string;
  _state: string;
  setState(value: string): void;
  abort(agent: unknown): void;
  getChildren?: () => MistreevousNode[];
}

export type StateChangeListener = (index: number, previous: string, state: string) => void;

/** What the runtime reads and does to a tapped tree's nodes, by pre-order index. */
export interface TappedNodes {
  stateOf(index: number): string;
  /**
   * Ends a running node between steps as a failing guard would: aborts its
   * running subtree, then sets its outcome for its parent to read on the
   * next step.
   */
  end(index: number, succeeded: boolean): void;
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
export function tapNodeStates(tree: BehaviourTree, agent: object, nodeCount: number, listener: StateChangeListener): TappedNodes {
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
    instances.every((node, i) => node.uid === uids[i] && Object.hasOwn(node, 'setState') && typeof node._state === 'string' && typeof node.abort === 'function');
  if (!layoutMatches) {
    throw new Error(`mistreevous's node internals are not the 4.3.1 layout the runtime taps (found ${instances.length} of ${nodeCount} nodes); pin mistreevous to 4.3.1`);
  }
  instances.forEach((node, index) => {
    node.setState = (state) => {
      const previous = node._state;
      node._state = state;
      if (previous !== state) listener(index, previous, state);
    };
  });
  return {
    stateOf: (index) => instances[index]!._state,
    end(index, succeeded) {
      const node = instances[index]!;
      if (node._state !== State.RUNNING) return;
      node.abort(agent);
      node.setState(succeeded ? State.SUCCEEDED : State.FAILED);
    },
  };
}
