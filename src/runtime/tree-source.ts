import { basename, extname } from 'node:path';
import { type Node as JsonNode, type ParseError, findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode } from 'jsonc-parser';
import { MdslSyntaxError, parseMdslCollecting } from './mdsl-parser.js';
import {
  NODE_TYPES,
  type AttributeDefinition,
  type NodeArgument,
  type NodeType,
  type TreeFile,
  type TreeNodeDefinition,
  type TreeProblem,
} from './tree-definition.js';

export const TREE_EXTENSIONS = ['.mdsl', '.json'] as const;

/** `trees/idioms/retry_backoff.mdsl` defines the tree "retry_backoff". */
export function treeNameOf(file: string): string {
  return basename(file, extname(file));
}

export type ParsedSource = { ok: true; tree: TreeFile } | { ok: false; problems: TreeProblem[] };

/** Parses one tree file (MDSL, or mistreevous JSON when the name ends in .json). */
export function parseTreeSource(file: string, text: string): ParsedSource {
  try {
    if (extname(file) === '.json') return { ok: true, tree: assemble(file, fromJson(text)) };
    const { roots, errors } = parseMdslCollecting(text);
    if (errors.length > 0) return { ok: false, problems: errors.map((error) => ({ file, line: error.line, message: error.message })) };
    return { ok: true, tree: assemble(file, roots) };
  } catch (error) {
    if (error instanceof TreeSyntaxError || error instanceof MdslSyntaxError) {
      return { ok: false, problems: [{ file, line: error.line, message: error.message }] };
    }
    throw error;
  }
}

class TreeSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

function assemble(file: string, roots: TreeNodeDefinition[]): TreeFile {
  const tree: TreeFile = { file, name: treeNameOf(file), main: undefined, locals: new Map() };
  for (const root of roots) {
    if (root.name === undefined) {
      if (tree.main) throw new TreeSyntaxError(root.line, `a second unnamed root: name it (root [helper]) to use it as a branch, the file already has a main root at line ${tree.main.line}`);
      tree.main = root;
    } else {
      const clash = tree.locals.get(root.name);
      if (clash) throw new TreeSyntaxError(root.line, `root [${root.name}] is defined twice (also at line ${clash.line})`);
      tree.locals.set(root.name, root);
    }
  }
  if (!tree.main) throw new TreeSyntaxError(roots[0]?.line ?? 1, `no main root: add an unnamed root { ... } (the tree "${tree.name}")`);
  return tree;
}

function fromJson(text: string): TreeNodeDefinition[] {
  const lineAt = (offset: number): number => text.slice(0, offset).split('\n').length;
  const errors: ParseError[] = [];
  const document = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (first || !document) {
    if (!first) throw new TreeSyntaxError(1, 'invalid JSON: the file is empty');
    const column = first.offset - text.lastIndexOf('\n', first.offset - 1);
    const what = printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    throw new TreeSyntaxError(lineAt(first.offset), `invalid JSON at column ${column}: ${what}`);
  }
  const roots = document.type === 'array' ? (document.children ?? []) : [document];
  return roots.map((root) => {
    const node = fromJsonNode(root, lineAt);
    if (node.type !== 'root') throw new TreeSyntaxError(node.line, `expected a root node at the top level, found '${node.type}'`);
    return node;
  });
}

/** A node's line is the line of its "type" key (else of its opening brace), wherever the key sits among the others. */
function fromJsonNode(json: JsonNode, lineAt: (offset: number) => number): TreeNodeDefinition {
  const typeProperty = json.type === 'object' ? findNodeAtLocation(json, ['type'])?.parent : undefined;
  const line = lineAt(typeProperty?.offset ?? json.offset);
  const value: unknown = getNodeValue(json);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TreeSyntaxError(line, 'expected a node object with a "type"');
  const raw = value as Record<string, unknown>;
  const type = NODE_TYPES.find((t) => t === raw.type) as NodeType | undefined;
  if (!type) throw new TreeSyntaxError(line, `unknown node type ${JSON.stringify(raw.type)} (node types: ${NODE_TYPES.join(', ')})`);
  const node: TreeNodeDefinition = { type, line, args: [], attributes: jsonAttributes(raw, line), children: [] };
  const name = raw.call ?? raw.ref ?? raw.id;
  if (name !== undefined) node.name = String(name);
  if ((type === 'action' || type === 'condition' || type === 'branch') && node.name === undefined) {
    throw new TreeSyntaxError(line, `a ${type} node needs ${type === 'branch' ? '"ref"' : '"call"'}`);
  }
  const numeric = raw.iterations ?? raw.attempts ?? raw.duration ?? raw.weights;
  if (type === 'action' || type === 'condition') node.args = (raw.args as NodeArgument[] | undefined) ?? [];
  else if (numeric !== undefined) node.args = Array.isArray(numeric) ? (numeric as number[]) : [numeric as number];
  const child = findNodeAtLocation(json, ['child']);
  if (child) node.children = [fromJsonNode(child, lineAt)];
  const children = findNodeAtLocation(json, ['children']);
  if (children?.type === 'array') node.children = (children.children ?? []).map((each) => fromJsonNode(each, lineAt));
  return node;
}

function jsonAttributes(raw: Record<string, unknown>, line: number): AttributeDefinition[] {
  const kinds = ['while', 'until', 'entry', 'exit', 'step'] as const;
  return kinds
    .filter((kind) => raw[kind] !== undefined)
    .map((kind) => {
      const attribute = raw[kind] as { call?: unknown; args?: NodeArgument[]; succeedOnAbort?: boolean };
      if (typeof attribute.call !== 'string') throw new TreeSyntaxError(line, `the "${kind}" attribute needs a "call" name`);
      return { kind, call: attribute.call, args: attribute.args ?? [], succeedOnAbort: attribute.succeedOnAbort === true, line };
    });
}
