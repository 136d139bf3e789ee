import type { LeafArgument } from '../registry/capability-spec.js';

/** A node argument: a literal, or `$name`, read from the step's arguments when the leaf starts. */
export type NodeArgument = LeafArgument | { $: string };

export const COMPOSITE_TYPES = ['sequence', 'selector', 'parallel', 'race', 'all', 'lotto'] as const;
export const DECORATOR_TYPES = ['root', 'repeat', 'retry', 'flip', 'succeed', 'fail'] as const;
export const LEAF_TYPES = ['action', 'condition', 'wait', 'branch'] as const;

export type NodeType =
  (typeof COMPOSITE_TYPES)[number] | (typeof DECORATOR_TYPES)[number] | (typeof LEAF_TYPES)[number];

export const NODE_TYPES: readonly NodeType[] = [...DECORATOR_TYPES, ...COMPOSITE_TYPES, ...LEAF_TYPES];

/**
 * How deep nodes may nest in one definition. The parser, the linter and
 * mistreevous all recurse per level, so a 20,000-deep file would overflow the
 * stack; real trees stay below 20 levels.
 */
export const MAX_TREE_DEPTH = 200;

/** Node kinds that take a count or duration: `[n]` or `[min, max]`, whole numbers, min <= max. */
export const RANGE_KEYS = { repeat: 'iterations', retry: 'attempts', wait: 'duration' } as const;

export interface AttributeDefinition {
  kind: 'while' | 'until' | 'entry' | 'exit' | 'step';
  call: string;
  args: NodeArgument[];
  /** Guards only: `then succeed`. */
  succeedOnAbort: boolean;
  line: number;
}

/** One node of a tree as written, with the line it starts on (1 for JSON trees without position). */
export interface TreeNodeDefinition {
  type: NodeType;
  line: number;
  /** Root id (`root [helper]`), the action/condition name, or the branch reference. */
  name?: string;
  args: NodeArgument[];
  attributes: AttributeDefinition[];
  children: TreeNodeDefinition[];
}

/** One tree file: its main root (the tree named after the file) and any named local roots. */
export interface TreeFile {
  file: string;
  name: string;
  main: TreeNodeDefinition | undefined;
  locals: Map<string, TreeNodeDefinition>;
}

export interface TreeProblem {
  file: string;
  line: number;
  message: string;
}

export function isComposite(type: NodeType): boolean {
  return (COMPOSITE_TYPES as readonly string[]).includes(type);
}

export function isDecorator(type: NodeType): boolean {
  return (DECORATOR_TYPES as readonly string[]).includes(type);
}
