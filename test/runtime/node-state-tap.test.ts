import { BehaviourTree, State } from 'mistreevous';
import { describe, expect, test } from 'vitest';
import { tapNodeStates } from '../../src/runtime/node-state-tap.js';

// Guards, a lotto, async settles and aborts: the changes a run's watchdogs and hooks rely on.
const definition = `root {
  repeat [3] {
    sequence while(open) {
      condition [ready]
      selector { action [miss] action [later] }
      lotto { action [hit] action [hit] }
      flip { condition [blocked] }
    }
  }
}`;

function agent(open: { value: boolean }) {
  let pending = 0;
  return {
    open: () => open.value,
    ready: () => true,
    blocked: () => false,
    miss: () => State.FAILED,
    hit: () => State.SUCCEEDED,
    later: () => (pending++ % 2 === 0 ? Promise.resolve(State.SUCCEEDED) : undefined),
  };
}

async function record(tap: boolean): Promise<string[]> {
  const open = { value: true };
  const changes: string[] = [];
  let ids: string[] = [];
  const treeAgent = agent(open);
  const tree = new BehaviourTree(definition, treeAgent, {
    random: () => 0.25,
    ...(tap
      ? {}
      : {
          onNodeStateChange: (change) =>
            changes.push(`${ids.indexOf(change.id)}:${change.previousState}>${change.state}`),
        }),
  });
  const walk = (details: { id: string; children?: unknown[] }): string[] => [
    details.id,
    ...((details.children ?? []) as { id: string }[]).flatMap(walk),
  ];
  ids = walk(tree.getTreeNodeDetails());
  if (tap) tapNodeStates(tree, ids.length, (index, previous, state) => changes.push(`${index}:${previous}>${state}`));
  for (let step = 0; step < 12; step++) {
    if (step === 5) open.value = false;
    if (step === 6) open.value = true;
    tree.step();
    await Promise.resolve();
    await Promise.resolve();
  }
  return changes;
}

/**
 * Steps a selector whose first branch waits on a pending action, ended at the third step by a guard or by
 * endAtNextUpdate.
 */
function endedBranch(by: 'guard' | 'end'): { changes: string[]; aborted: number } {
  const open = { value: true };
  let aborted = 0;
  const branchAgent = {
    open: () => open.value,
    pending: () => new Promise<never>(() => undefined),
    hit: () => State.SUCCEEDED,
  };
  const guard = by === 'guard' ? ' while(open)' : '';
  const tree = new BehaviourTree(
    `root { selector { sequence${guard} { action [pending] } action [hit] } }`,
    branchAgent,
  );
  const changes: string[] = [];
  const tapped = tapNodeStates(tree, 5, (index, previous, state) => {
    changes.push(`${index}:${previous}>${state}`);
    if (index === 3 && previous === State.RUNNING) aborted++;
  });
  tree.step();
  tree.step();
  if (by === 'guard') open.value = false;
  else tapped.endAtNextUpdate(2, false);
  tree.step();
  expect(tree.getState()).toBe(State.SUCCEEDED);
  return { changes, aborted };
}

describe('tapNodeStates', () => {
  test('endAtNextUpdate ends a running node at its next update exactly as a failing guard does', () => {
    const viaGuard = endedBranch('guard');
    expect(viaGuard.aborted).toBe(1);
    expect(endedBranch('end')).toEqual(viaGuard);
  });

  test("a withdrawn end does not reach the node's next run, and an end counts as a retry attempt", () => {
    const retryAgent = { pending: () => new Promise<never>(() => undefined) };
    const tree = new BehaviourTree('root { retry [2] { sequence { action [pending] } } }', retryAgent);
    const states: string[] = [];
    const tapped = tapNodeStates(tree, 4, (index, _previous, state) => (states[index] = state));
    tree.step();
    tapped.endAtNextUpdate(2, false);
    tapped.cancelEnd(2);
    tree.step();
    expect(states[2]).toBe(State.RUNNING);
    for (let attempt = 1; attempt <= 2; attempt++) {
      tapped.endAtNextUpdate(2, false);
      tree.step();
      expect(states[2]).toBe(State.FAILED);
      expect(tree.getState()).toBe(State.RUNNING);
      tree.step();
    }
    expect(tree.getState()).toBe(State.FAILED);
  });

  test('reports every state change, with the pre-order index, exactly as the public callback does', async () => {
    const viaCallback = await record(false);
    expect(viaCallback.length).toBeGreaterThan(20);
    expect(await record(true)).toEqual(viaCallback);
  });

  test('refuses a tree whose node layout it does not recognise, instead of misattributing changes', () => {
    const hitAgent = { hit: () => State.SUCCEEDED };
    const tree = new BehaviourTree('root { action [hit] }', hitAgent);
    expect(() => tapNodeStates(tree, 3, () => undefined)).toThrow(/not the 4.3.1 layout.*found 2 of 3 nodes/);
  });
});
