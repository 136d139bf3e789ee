import type { BindingRegistry } from './binding-registry.js';
import { compileTree, type CompiledTree } from './compile.js';
import { type LintOptions, lintTrees } from './lint.js';
import type { TreeFile, TreeProblem } from './tree-definition.js';
import { readTreeFolder } from './tree-files.js';
import { parseTreeSource } from './tree-source.js';

export interface TreeSourceText {
  file: string;
  text: string;
  /** Why the file could not be read (a symlink loop, a link out of the folder); `text` is then empty. */
  unreadable?: string;
}

export function formatProblem(problem: TreeProblem): string {
  return `${problem.file}:${problem.line}: ${problem.message}`;
}

/** Thrown when trees fail to load; carries every problem, not just the first. */
export class TreeLoadError extends Error {
  override name = 'TreeLoadError';
  constructor(readonly problems: readonly TreeProblem[]) {
    super(`${problems.length} problem(s) in tree definitions:\n${problems.map(formatProblem).join('\n')}`);
  }
}

/** Trees registered by name, compiled once, checked before any run starts. */
export class TreeCatalog {
  constructor(private readonly trees: ReadonlyMap<string, CompiledTree>) {}

  get(name: string): CompiledTree | undefined {
    return this.trees.get(name);
  }

  names(): string[] {
    return [...this.trees.keys()].sort();
  }
}

export type CheckedTrees = { problems: TreeProblem[]; files: Map<string, TreeFile> };

/** Parses and lints a set of tree sources; every problem is returned. */
export function checkTreeSources(
  sources: readonly TreeSourceText[],
  bindings: BindingRegistry,
  options: LintOptions = {},
): CheckedTrees {
  const problems: TreeProblem[] = [];
  const files = new Map<string, TreeFile>();
  for (const source of sources) {
    if (source.unreadable !== undefined) {
      problems.push({ file: source.file, line: 1, message: source.unreadable });
      continue;
    }
    const parsed = parseTreeSource(source.file, source.text);
    if (!parsed.ok) {
      problems.push(...parsed.problems);
      continue;
    }
    const clash = files.get(parsed.tree.name);
    if (clash) {
      problems.push({
        file: source.file,
        line: 1,
        message: `tree "${parsed.tree.name}" is also defined by ${clash.file}; tree names come from file names and must be unique`,
      });
      continue;
    }
    files.set(parsed.tree.name, parsed.tree);
  }
  problems.push(...lintTrees(files, bindings, options));
  return { problems, files };
}

/** Builds a catalog from in-memory sources; throws TreeLoadError listing every problem. */
export function createTreeCatalog(
  sources: readonly TreeSourceText[],
  bindings: BindingRegistry,
  options: LintOptions = {},
): TreeCatalog {
  const { problems, files } = checkTreeSources(sources, bindings, options);
  if (problems.length > 0) throw new TreeLoadError(problems);
  const trees = new Map<string, CompiledTree>();
  for (const file of files.values()) trees.set(file.name, compileTree(files, file));
  return new TreeCatalog(trees);
}

/** Reads tree files: each path is a file or a directory searched recursively for .mdsl and .json. */
export async function readTreeSources(paths: readonly string[]): Promise<TreeSourceText[]> {
  const sources: TreeSourceText[] = [];
  for (const path of paths) sources.push(...(await readTreeFolder(path)));
  return sources;
}
/** Loads every tree under `paths` (default: the trees/ directory); fails before the first tick on any problem. */
export async function loadTreeCatalog(
  paths: readonly string[],
  bindings: BindingRegistry,
  options: LintOptions = {},
): Promise<TreeCatalog> {
  return createTreeCatalog(await readTreeSources(paths), bindings, options);
}
