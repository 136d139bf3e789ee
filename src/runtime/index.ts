/**
 * The behavior-tree runtime: capabilities run as mistreevous trees with
 * watchdogs, real cancellation and local repair.
 *
 * Loading (fails before the first tick, listing every problem with file:line):
 *   const bindings = createBindingRegistry();           // the runtime's world leaves (goto, dig, ...)
 *   bindings.registerCapability(digSpec);               // spec.bindings: { actions, conditions }
 *   const catalog = await loadTreeCatalog(['trees'], bindings);   // trees/<name>.mdsl -> "<name>"
 *
 * Running:
 *   const runner = createTreeRunner({ catalog, bindings, clock, tickHz: 20, hooks });
 *   const outcome = await runner.run('dig_block', { args, world }, {
 *     signal, expectedDurationMs: spec.expectedDurationMs, retryableCodes: spec.retryableCodes,
 *     watchdogDefaults: { ttfaMs: 2000, noActuatorMs: 3000 },
 *   });
 *   // outcome: { ok: true } | { ok: false, code, detail, nodePath?, limitMs?, measuredMs? }
 *   // A FailureCode as the signal's reason (e.g. "preempted") becomes the code. When run() resolves,
 *   // every leaf's signal has fired and no ctx.actuate command is in flight (or abortGraceMs passed).
 *
 * Stepping: a fixed tick (default 20 Hz) drives guards and watchdogs; a settling leaf steps its
 * tree at once (up to 64 such prompt steps per tick). Watchdog trips fire on exact clock timers.
 *
 * Leaves: `TreeAction` (ctx: RunContext, ...nodeArgs) — async allowed; ctx.signal fires when the
 * node is aborted (guard, watchdog, preemption, reset, shutdown) and ctx.actuate(command, fn) is
 * the one way to command the world (it stamps the clock for TTFA / noActuator). `TreeCondition`
 * is synchronous. `$name` node arguments read the step argument `name`.
 *
 * Watchdogs are `while(watchdog, "kind", limitMs, ...)` guards (kinds: ttfa, maxStateDuration,
 * noActuator); kinds a tree does not declare get step-level defaults (2000 ms, 2 x
 * expectedDurationMs, 3000 ms). Idioms: retry + `while(retryable)` + `action [backoff, base, max]`,
 * selector fallback, retry/selector/fail recovery, `action [round_robin, "a", "b"]`; examples in
 * trees/idioms/.
 */
export { BindingError, BindingRegistry } from './binding-registry.js';
export type { CompiledNode, CompiledTree } from './compile.js';
export { formatTree } from './format-tree.js';
export type {
  ActuationEvent,
  NodeState,
  NodeStateChange,
  NodeStatesEvent,
  ProgressEvent,
  RunEndEvent,
  RuntimeHooks,
  WatchdogTripEvent,
} from './hooks.js';
export { INTRINSIC_ACTIONS, INTRINSIC_GUARDS, RESERVED_NAMES } from './intrinsics.js';
export { lintTrees, type LintOptions, type TreeCapability } from './lint.js';
export { MdslSyntaxError, parseMdsl } from './mdsl-parser.js';
export type { TreeFailure, TreeOutcome } from './outcome.js';
export {
  TreeCatalog,
  TreeLoadError,
  checkTreeSources,
  createTreeCatalog,
  formatProblem,
  loadTreeCatalog,
  readTreeSources,
  type CheckedTrees,
  type TreeSourceText,
} from './tree-catalog.js';
export type { NodeArgument, TreeFile, TreeNodeDefinition, TreeProblem } from './tree-definition.js';
export type { RunContextParts } from './invocation.js';
export { NodeAbortedError } from './node-aborted-error.js';
export {
  DEFAULT_ABORT_GRACE_MS,
  DEFAULT_TICK_HZ,
  createTreeRunner,
  type RunOptions,
  type TreeRunner,
  type TreeRunnerOptions,
} from './tree-runner.js';
export { parseTreeSource, treeNameOf } from './tree-source.js';
export {
  DEFAULT_NO_ACTUATOR_MS,
  DEFAULT_TTFA_MS,
  STATE_DURATION_PER_EXPECTED,
  WATCHDOG_KINDS,
  WATCHDOG_KIND_LIST,
  defaultWatchdogs,
  parseWatchdogArguments,
  type WatchdogDefaults,
  type WatchdogKind,
  type WatchdogSpec,
} from './watchdog-spec.js';
export { createBindingRegistry, worldLeaves } from './world-leaves.js';
export type { LeafArgument, TreeAction, TreeBindings, TreeCondition } from '../registry/capability-spec.js';
