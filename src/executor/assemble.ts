import { join } from 'node:path';
import type { Clock } from '../contracts/clock.js';
import type { WorldPort } from '../contracts/world.js';
import { systemClock } from '../clock/system-clock.js';
import { packageRoot } from '../package-root.js';
import { argumentNames } from '../registry/argument-names.js';
import { missingActuators, type CapabilityRegistry } from '../registry/registry.js';
import { closestMatch } from '../registry/suggest.js';
import type { TreeCapability } from '../runtime/lint.js';
import type { RuntimeHooks } from '../runtime/hooks.js';
import type { TreeCatalog } from '../runtime/tree-catalog.js';
import { loadTreeCatalog } from '../runtime/tree-catalog.js';
import { createTreeRunner, type TreeRunner } from '../runtime/tree-runner.js';
import { createBindingRegistry } from '../runtime/world-leaves.js';
import type { BindingRegistry } from '../runtime/binding-registry.js';
import { createExecutor, type Executor, type ExecutorOptions } from './executor.js';
import type { StepInvoker } from './invoker.js';
import { treeInvoker } from './tree-invoker.js';

export interface AssembleOptions extends Omit<ExecutorOptions, 'invoker' | 'clock'> {
  registry: CapabilityRegistry;
  world: WorldPort;
  clock?: Clock;
  /**
   * Folders or files of tree definitions in place of the built-in ones (builtinTreePaths()); for tests of trees alone.
   */
  treePaths?: readonly string[];
  /** The user's own tree folders or files, loaded beside the built-in ones (or beside `treePaths`). */
  extraTreePaths?: readonly string[];
  hooks?: RuntimeHooks;
  /** Trees already loaded (with the bindings they were checked against), to build many executors cheaply. */
  loaded?: { catalog: TreeCatalog; bindings: BindingRegistry };
  /** Wraps the tree invoker, e.g. to inject faults. */
  wrapInvoker?: (invoker: StepInvoker) => StepInvoker;
}

/** The registry and the world (or the trees) cannot work together; the message names each mismatch. */
export class AssemblyError extends Error {
  override name = 'AssemblyError';
}

export interface Assembly {
  executor: Executor;
  runner: TreeRunner;
  catalog: TreeCatalog;
  bindings: BindingRegistry;
}

/** The leaves of every registered capability, plus the runtime's world leaves. */
export function bindingsFor(registry: CapabilityRegistry): BindingRegistry {
  const bindings = createBindingRegistry();
  for (const verb of registry.verbs()) for (const spec of registry.versions(verb)) bindings.registerCapability(spec);
  return bindings;
}

/** The folder(s) of the trees verbtree ships; a user's tree folders are added to these, never in place of them. */
export function builtinTreePaths(): string[] {
  return [join(packageRoot(), 'trees')];
}

/** What lint needs to know of each runnable capability: its tree and the argument names its `$name`s may read. */
export function treeCapabilitiesOf(registry: CapabilityRegistry): TreeCapability[] {
  return registry.verbs().flatMap((verb) =>
    registry.versions(verb).flatMap((spec) => {
      if (spec.tree === undefined) return [];
      const names = argumentNames(spec.inputSchema);
      return [{ owner: `${spec.name}@${spec.version}`, tree: spec.tree, ...(names ? { argumentNames: names } : {}) }];
    }),
  );
}

/** Thrown when a capability names a tree no tree folder defines: at assembly, not when its first step runs. */
export class CapabilityTreeError extends Error {
  override name = 'CapabilityTreeError';
}

/**
 * Everything wired for one bot: trees loaded and linted against the registry's
 * bindings and capabilities (failing before the first tick), the tree runner, and the executor.
 */
export async function assembleExecutor(options: AssembleOptions): Promise<Assembly> {
  const treePaths = [...(options.treePaths ?? builtinTreePaths()), ...(options.extraTreePaths ?? [])];
  const loaded = options.loaded ?? (await loadTrees(options.registry, treePaths));
  return assembleLoaded({ ...options, loaded });
}

/**
 * Loads and checks the trees against the registry: every leaf bound (with the arity its binding declares),
 * every `$name` an argument of its capability, every capability's tree defined. Fails listing every problem.
 */
export async function loadTrees(
  registry: CapabilityRegistry,
  treePaths: readonly string[] = builtinTreePaths(),
): Promise<{ catalog: TreeCatalog; bindings: BindingRegistry }> {
  const bindings = bindingsFor(registry);
  const capabilities = treeCapabilitiesOf(registry);
  const catalog = await loadTreeCatalog(treePaths, bindings, { capabilities });
  const missing = capabilities.filter((capability) => !catalog.get(capability.tree));
  if (missing.length > 0) {
    const lines = missing.map(({ owner, tree }) => {
      const hint = closestMatch(tree, catalog.names());
      return `${owner}: its tree "${tree}" is defined in no tree folder${hint ? ` (did you mean "${hint}"?)` : ''}; add ${tree}.mdsl to one of: ${treePaths.join(', ')}`;
    });
    throw new CapabilityTreeError(lines.join('\n'));
  }
  return { catalog, bindings };
}

/** The synchronous half of assembleExecutor, for trees already loaded. */
export function assembleLoaded(
  options: AssembleOptions & { loaded: { catalog: TreeCatalog; bindings: BindingRegistry } },
): Assembly {
  const lacking = missingActuators(options.registry, options.world);
  if (lacking.length > 0)
    throw new AssemblyError(`cannot run these capabilities in this world:\n  ${lacking.join('\n  ')}`);
  const clock = options.clock ?? systemClock;
  const { catalog, bindings } = options.loaded;
  const policyTick = options.policy?.tickHz;
  const runner = createTreeRunner({
    catalog,
    bindings,
    clock,
    ...(policyTick ? { tickHz: policyTick } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  });
  const invoker = treeInvoker(runner);
  const executor = createExecutor({
    ...options,
    clock,
    invoker: options.wrapInvoker ? options.wrapInvoker(invoker) : invoker,
  });
  return { executor, runner, catalog, bindings };
}
