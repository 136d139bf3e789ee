import { join } from 'node:path';
import type { Clock } from '../contracts/clock.js';
import type { WorldPort } from '../contracts/world.js';
import { systemClock } from '../clock/system-clock.js';
import { packageRoot } from '../package-root.js';
import { missingActuators, type CapabilityRegistry } from '../registry/registry.js';
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
  /** Folders or files of tree definitions; default: the package's trees/. */
  treePaths?: readonly string[];
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

export function defaultTreePaths(): string[] {
  return [join(packageRoot(), 'trees')];
}

/**
 * Everything wired for one bot: trees loaded and linted against the registry's
 * bindings (failing before the first tick), the tree runner, and the executor.
 */
export async function assembleExecutor(options: AssembleOptions): Promise<Assembly> {
  const loaded = options.loaded ?? (await loadTrees(options.registry, options.treePaths));
  return assembleLoaded({ ...options, loaded });
}

/** Loads and checks the trees against the registry's bindings; fails listing every problem. */
export async function loadTrees(registry: CapabilityRegistry, treePaths?: readonly string[]): Promise<{ catalog: TreeCatalog; bindings: BindingRegistry }> {
  const bindings = bindingsFor(registry);
  return { catalog: await loadTreeCatalog(treePaths ?? defaultTreePaths(), bindings), bindings };
}

/** The synchronous half of assembleExecutor, for trees already loaded. */
export function assembleLoaded(options: AssembleOptions & { loaded: { catalog: TreeCatalog; bindings: BindingRegistry } }): Assembly {
  const lacking = missingActuators(options.registry, options.world);
  if (lacking.length > 0) throw new AssemblyError(`cannot run these capabilities in this world:\n  ${lacking.join('\n  ')}`);
  const clock = options.clock ?? systemClock;
  const { catalog, bindings } = options.loaded;
  const policyTick = options.policy?.tickHz;
  const runner = createTreeRunner({ catalog, bindings, clock, ...(policyTick ? { tickHz: policyTick } : {}), ...(options.hooks ? { hooks: options.hooks } : {}) });
  const invoker = treeInvoker(runner);
  const executor = createExecutor({ ...options, clock, invoker: options.wrapInvoker ? options.wrapInvoker(invoker) : invoker });
  return { executor, runner, catalog, bindings };
}
