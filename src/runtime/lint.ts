import { closestMatch } from '../registry/suggest.js';
import { arityAllows, type BindingRegistry, describeArity } from './binding-registry.js';
import { INTRINSIC_ACTIONS, INTRINSIC_GUARDS } from './intrinsics.js';
import {
  MAX_TREE_DEPTH,
  type NodeArgument,
  type TreeFile,
  type TreeNodeDefinition,
  type TreeProblem,
} from './tree-definition.js';
import { parseWatchdogArguments } from './watchdog-spec.js';

/** Where a branch reference lands: a named root in the same file, else another file's tree. */
export function resolveBranch(
  files: ReadonlyMap<string, TreeFile>,
  from: TreeFile,
  ref: string,
): { file: TreeFile; root: TreeNodeDefinition } | undefined {
  const local = from.locals.get(ref);
  if (local) return { file: from, root: local };
  const other = files.get(ref);
  return other?.main ? { file: other, root: other.main } : undefined;
}

const depths = new WeakMap<TreeNodeDefinition, number>();

/** Levels below a node, not counting branches (each file's own depth is limited by its parser); remembered per node. */
function treeDepth(node: TreeNodeDefinition): number {
  let depth = depths.get(node);
  if (depth === undefined) {
    depth = node.children.reduce((deepest, child) => Math.max(deepest, 1 + treeDepth(child)), 0);
    depths.set(node, depth);
  }
  return depth;
}

function didYouMean(name: string, candidates: readonly string[]): string {
  const hint = closestMatch(name, candidates);
  return hint ? ` (did you mean "${hint}"?)` : '';
}

/** A capability whose tree is linted: its `$name` arguments must be names its input schema gives. */
export interface TreeCapability {
  /** `name@version`, as messages name it. */
  owner: string;
  tree: string;
  /** The names its parsed arguments can hold; undefined when the schema cannot say (then `$name` is not checked). */
  argumentNames?: readonly string[];
}

export interface LintOptions {
  capabilities?: readonly TreeCapability[];
}

/**
 * Checks every tree against the bindings and reports every problem it finds
 * (not just the first): unknown leaves and guards, leaves called with the wrong
 * number of arguments, `$name` arguments the capability does not have, bad
 * watchdogs, misplaced idioms, missing and circular branches.
 */
export function lintTrees(
  files: ReadonlyMap<string, TreeFile>,
  bindings: BindingRegistry,
  options: LintOptions = {},
): TreeProblem[] {
  const problems = new Map<string, TreeProblem>();
  const report = (file: TreeFile, line: number, message: string): void => {
    problems.set(`${file.file}:${line}:${message}`, { file: file.file, line, message });
  };
  const actions = [...bindings.actionNames(), ...INTRINSIC_ACTIONS];
  const conditions = bindings.conditionNames();
  const guards = [...conditions, ...INTRINSIC_GUARDS];

  const checkArity = (
    file: TreeFile,
    line: number,
    what: string,
    name: string,
    args: readonly NodeArgument[],
  ): void => {
    const arity = bindings.arityOf(name);
    if (arity !== undefined && !arityAllows(arity, args.length))
      report(file, line, `${what} "${name}" ${describeArity(arity)}, given ${args.length}`);
  };

  // `$name` reads the step's arguments of the capability whose tree is running, through any branch it calls.
  const checkArguments = (
    file: TreeFile,
    line: number,
    args: readonly NodeArgument[],
    owners: readonly TreeCapability[],
  ): void => {
    for (const arg of args) {
      if (arg === null || typeof arg !== 'object') continue;
      for (const owner of owners) {
        if (!owner.argumentNames || owner.argumentNames.includes(arg.$)) continue;
        const known = owner.argumentNames.length
          ? `its arguments: ${owner.argumentNames.join(', ')}`
          : 'it takes no arguments';
        report(
          file,
          line,
          `"$${arg.$}" is not an argument of ${owner.owner} (${known})${didYouMean(arg.$, owner.argumentNames)}`,
        );
      }
    }
  };

  const checkNode = (
    file: TreeFile,
    node: TreeNodeDefinition,
    insideRetry: boolean | undefined,
    owners: readonly TreeCapability[],
  ): void => {
    checkArguments(file, node.line, node.args, owners);
    for (const attribute of node.attributes) {
      checkArguments(file, attribute.line, attribute.args, owners);
      if (conditions.includes(attribute.call))
        checkArity(file, attribute.line, `guard condition`, attribute.call, attribute.args);
      if (attribute.kind === 'entry' || attribute.kind === 'exit' || attribute.kind === 'step') {
        report(
          file,
          attribute.line,
          `${attribute.kind}(${attribute.call}) callbacks are not supported: they bypass cancellation; use an action node`,
        );
      } else if (attribute.call === 'watchdog') {
        if (attribute.kind !== 'while')
          report(file, attribute.line, 'a watchdog must be a while(...) guard: while(watchdog, "ttfa", 2000)');
        const parsed = parseWatchdogArguments(attribute.args);
        if (!parsed.ok) for (const error of parsed.errors) report(file, attribute.line, error);
      } else if (attribute.call === 'retryable') {
        if (attribute.kind !== 'while')
          report(file, attribute.line, 'retryable must be a while(...) guard: retry [3] while(retryable) { ... }');
        if (attribute.args.length > 0) report(file, attribute.line, 'retryable takes no arguments: while(retryable)');
      } else if (!conditions.includes(attribute.call)) {
        const asAction = actions.includes(attribute.call) ? ' (it is bound as an action; guards call conditions)' : '';
        report(
          file,
          attribute.line,
          `unknown guard condition "${attribute.call}"${asAction || didYouMean(attribute.call, guards)}`,
        );
      }
    }
    if (node.type === 'action' && node.name !== undefined) checkAction(file, node, insideRetry);
    if (node.type === 'condition' && node.name !== undefined && conditions.includes(node.name))
      checkArity(file, node.line, 'condition', node.name, node.args);
    if (node.type === 'condition' && node.name !== undefined && !conditions.includes(node.name)) {
      const asAction = actions.includes(node.name) ? ' (it is bound as an action: use action [...])' : '';
      report(file, node.line, `unknown condition "${node.name}"${asAction || didYouMean(node.name, conditions)}`);
    }
  };

  const checkAction = (file: TreeFile, node: TreeNodeDefinition, insideRetry: boolean | undefined): void => {
    const name = node.name!;
    if (name === 'backoff') {
      const [base, max] = node.args;
      const valid =
        node.args.length === 2 && typeof base === 'number' && typeof max === 'number' && base > 0 && max >= base;
      if (!valid)
        report(
          file,
          node.line,
          'backoff takes [backoff, baseMs, maxMs] with 0 < baseMs <= maxMs, e.g. action [backoff, 250, 4000]',
        );
      if (insideRetry === false)
        report(
          file,
          node.line,
          'backoff counts the attempts of an enclosing retry node; put it inside retry [n] { ... }',
        );
    } else if (name === 'round_robin') {
      if (node.args.length === 0)
        report(
          file,
          node.line,
          'round_robin needs the actions to rotate through, e.g. action [round_robin, "unstuck_jump", "unstuck_back"]',
        );
      for (const arg of node.args) {
        if (typeof arg !== 'string' || !bindings.action(arg)) {
          report(
            file,
            node.line,
            `round_robin: "${String(typeof arg === 'object' && arg ? `$${arg.$}` : arg)}" is not a bound action${typeof arg === 'string' ? didYouMean(arg, bindings.actionNames()) : ''}`,
          );
        }
      }
    } else if (bindings.action(name)) {
      checkArity(file, node.line, 'action', name, node.args);
    } else if (!actions.includes(name)) {
      const asCondition = conditions.includes(name) ? ' (it is bound as a condition: use condition [...])' : '';
      report(file, node.line, `unknown action "${name}"${asCondition || didYouMean(name, actions)}`);
    }
  };

  const walk = (
    file: TreeFile,
    node: TreeNodeDefinition,
    insideRetry: boolean | undefined,
    stack: string[],
    depth: number,
    owners: readonly TreeCapability[],
  ): void => {
    checkNode(file, node, insideRetry, owners);
    if (node.type === 'branch' && node.name !== undefined) {
      const target = resolveBranch(files, file, node.name);
      if (!target) {
        const candidates = [...file.locals.keys(), ...files.keys()];
        report(
          file,
          node.line,
          `branch [${node.name}] names no tree: not a root [${node.name}] in this file nor a file ${node.name}.mdsl${didYouMean(node.name, candidates)}`,
        );
        return;
      }
      const key = `${target.file.file}#${target.root.name ?? target.file.name}`;
      if (stack.includes(key)) {
        const cycle = [...stack.slice(stack.indexOf(key)), key].map((k) => k.split('#')[1]).join(' -> ');
        report(file, node.line, `circular branch: ${cycle}`);
        return;
      }
      // A branch is inlined when the tree is built: its depth adds to the caller's.
      if (depth + treeDepth(target.root) > MAX_TREE_DEPTH) {
        report(
          file,
          node.line,
          `with branch [${node.name}] inlined, nodes nest deeper than ${MAX_TREE_DEPTH} levels: flatten the chain of branches`,
        );
        return;
      }
      walk(target.file, target.root, insideRetry, [...stack, key], depth, owners);
      return;
    }
    const childInsideRetry = insideRetry === undefined ? undefined : insideRetry || node.type === 'retry';
    for (const child of node.children) walk(file, child, childInsideRetry, stack, depth + 1, owners);
  };

  const capabilities = options.capabilities ?? [];
  for (const file of files.values()) {
    const owners = capabilities.filter((capability) => capability.tree === file.name);
    if (file.main) walk(file, file.main, false, [`${file.file}#${file.name}`], 1, owners);
    // Local roots are checked alone too; whether a backoff there sits in a retry depends on the caller.
    for (const [name, root] of file.locals) walk(file, root, undefined, [`${file.file}#${name}`], 1, owners);
  }
  return [...problems.values()].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}
