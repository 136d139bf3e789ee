import { basename, extname } from 'node:path';
import { JsonTreeError, readJsonTree } from './json-tree-reader.js';
import { parseMdslCollecting } from './mdsl-parser.js';
import { mistreevousRefusal, toMistreevousDefinition, type LocatedDefinition } from './mistreevous-definition.js';
import type { TreeFile, TreeNodeDefinition, TreeProblem } from './tree-definition.js';

export const TREE_EXTENSIONS = ['.mdsl', '.json'] as const;

/** `trees/idioms/retry_backoff.mdsl` defines the tree "retry_backoff". */
export function treeNameOf(file: string): string {
  return basename(file, extname(file));
}

export type ParsedSource = { ok: true; tree: TreeFile } | { ok: false; problems: TreeProblem[] };

/** What verbtree's own checks make of a file, and the definition mistreevous will be given. */
export type ReadDefinition =
  | { ok: true; tree: TreeFile; roots: TreeNodeDefinition[]; mistreevous: LocatedDefinition }
  | { ok: false; problems: TreeProblem[] };

/**
 * Parses one tree file (MDSL, or mistreevous JSON when the name ends in .json)
 * with verbtree's checks, then passes it through mistreevous's own
 * validateDefinition, whose message lands at the offending node's line.
 */
export function parseTreeSource(file: string, text: string): ParsedSource {
  const read = readTreeDefinition(file, text);
  if (!read.ok) return read;
  const refusal = mistreevousRefusal(read.mistreevous);
  if (refusal) return { ok: false, problems: [{ file, ...refusal }] };
  return { ok: true, tree: read.tree };
}

/** verbtree's own reading of a tree file, without mistreevous's check (the differential test compares the two). */
export function readTreeDefinition(file: string, text: string): ReadDefinition {
  try {
    if (extname(file) === '.json') {
      const json = readJsonTree(text);
      return {
        ok: true,
        tree: assemble(file, json.roots),
        roots: json.roots,
        mistreevous: { document: json.document, locations: json.locations },
      };
    }
    const { roots, errors } = parseMdslCollecting(text);
    if (errors.length > 0)
      return { ok: false, problems: errors.map((error) => ({ file, line: error.line, message: error.message })) };
    return { ok: true, tree: assemble(file, roots), roots, mistreevous: toMistreevousDefinition(roots) };
  } catch (error) {
    if (error instanceof TreeSyntaxError || error instanceof JsonTreeError) {
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
      if (tree.main)
        throw new TreeSyntaxError(
          root.line,
          `a second unnamed root: name it (root [helper]) to use it as a branch, the file already has a main root at line ${tree.main.line}`,
        );
      tree.main = root;
    } else {
      const clash = tree.locals.get(root.name);
      if (clash)
        throw new TreeSyntaxError(root.line, `root [${root.name}] is defined twice (also at line ${clash.line})`);
      tree.locals.set(root.name, root);
    }
  }
  if (!tree.main)
    throw new TreeSyntaxError(
      roots[0]?.line ?? 1,
      `no main root: add an unnamed root { ... } (the tree "${tree.name}")`,
    );
  refuseLocalCycles(tree);
  return tree;
}

/**
 * Branches between the roots of one file must not loop. mistreevous checks the
 * roots reachable from the main one; verbtree checks every root, since any of
 * them may be another file's branch target.
 */
function refuseLocalCycles(tree: TreeFile): void {
  const loopFree = new Set<string | undefined>();
  const visit = (name: string | undefined, root: TreeNodeDefinition, path: (string | undefined)[]): void => {
    if (loopFree.has(name)) return;
    const branches: TreeNodeDefinition[] = [];
    const collect = (node: TreeNodeDefinition): void => {
      if (node.type === 'branch') branches.push(node);
      node.children.forEach(collect);
    };
    collect(root);
    for (const branch of branches) {
      const target = tree.locals.get(branch.name!);
      if (!target) continue;
      if (path.includes(branch.name)) {
        const cycle = [...path.slice(path.indexOf(branch.name)), branch.name].map((n) => n ?? tree.name).join(' -> ');
        throw new TreeSyntaxError(branch.line, `circular branch: ${cycle}`);
      }
      visit(branch.name, target, [...path, branch.name]);
    }
    loopFree.add(name);
  };
  visit(undefined, tree.main!, [undefined]);
  for (const [name, root] of tree.locals) visit(name, root, [name]);
}
