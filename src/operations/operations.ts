import type { PromotionRule } from '../registry/canary-sla.js';
import { systemClock } from '../clock/system-clock.js';
import type { Clock } from '../contracts/clock.js';
import type { HealthConfigInput } from '../journal/health-config.js';
import type { Journal } from '../journal/journal.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import type { BotAccess } from './bot-access.js';
import { journalPort, type OperationsJournal } from './journal-port.js';
import { observe } from './observe.js';
import * as queries from './queries.js';
import { RunBook } from './run-book.js';
import * as runs from './runs.js';
import { validate, type ValidationAnswer } from './validate.js';

export interface OperationsOptions {
  registry: CapabilityRegistry;
  /** This process's journal, or any other behind the operations' port. */
  journal: Journal | OperationsJournal;
  bots: BotAccess;
  /** The clock waits (`waitMs`) run on; default the system's. */
  clock?: Clock;
  health?: HealthConfigInput;
  /** This process's runner id, so its own health check never judges itself. */
  selfRunnerId?: string;
  /** The rule that marks a canary ready; default PromotionRule's defaults. */
  canaryRule?: PromotionRule;
  /** How many ended runs getRun still shows from memory (with their result); older ones come from the journal. */
  keepEnded?: number;
}

/** Drop the context argument: what a transport calls. */
type Bound<F> = F extends (ctx: never, ...args: infer A) => infer R ? (...args: A) => R : never;

/**
 * Everything verbtree does for a caller, free of any transport: the HTTP routes and the MCP server are adapters
 * over these. Each refuses with an OperationError (a kind, a message naming the field and the fix, details).
 */
export interface Operations {
  /** Starts a plan and returns at once with its id. */
  start: Bound<typeof runs.startRun>;
  /** Starts a plan and waits for its end; `signal` cancels it, `waitMs` returns a running handle past it. */
  run: Bound<typeof runs.runToEnd>;
  /** A run's status, steps and failure; `waitMs` waits for its end first. */
  getRun: Bound<typeof runs.getRun>;
  /** Calls a listener with each event of a run this process started, until it ends. */
  follow: Bound<typeof runs.followRun>;
  pause: Bound<typeof runs.pauseRun>;
  resume: Bound<typeof runs.resumeRun>;
  cancel: Bound<typeof runs.cancelRun>;
  replaceRemaining: Bound<typeof runs.replaceRemaining>;
  /** Every issue of a plan, with path, code and fix; nothing moves. */
  validate(input: unknown): Promise<ValidationAnswer>;
  /** The world's truth around a bot. */
  observe: Bound<typeof observe>;
  listBots: Bound<typeof queries.listBots>;
  botStatus: Bound<typeof queries.botStatus>;
  /** Capabilities with their SLA, from the journal and from this process. */
  capabilities: Bound<typeof queries.capabilities>;
  /** Each canary beside its stable version: the SLAs by world kind, and its standing by the promotion rule. */
  canaries: Bound<typeof queries.canaries>;
  /** The journal's health: a read changes nothing, `recover` acts. */
  health: Bound<typeof queries.health>;
  incidents: Bound<typeof queries.incidents>;
  listRuns: Bound<typeof queries.listRuns>;
  provenance: Bound<typeof queries.provenance>;
  nodeStates: Bound<typeof queries.nodeStates>;
  planEvents: Bound<typeof queries.planEvents>;
}

const isPort = (journal: Journal | OperationsJournal): journal is OperationsJournal =>
  typeof (journal as OperationsJournal).provenance === 'function';

export function createOperations(options: OperationsOptions): Operations {
  const journal = isPort(options.journal) ? options.journal : journalPort(options.journal);
  const run: runs.RunContext = {
    registry: options.registry,
    bots: options.bots,
    book: new RunBook(options.keepEnded),
    clock: options.clock ?? systemClock,
    journal,
  };
  const query: queries.QueryContext = {
    journal,
    registry: options.registry,
    bots: options.bots,
    ...(options.health ? { health: options.health } : {}),
    ...(options.selfRunnerId ? { selfRunnerId: options.selfRunnerId } : {}),
    ...(options.canaryRule ? { canaryRule: options.canaryRule } : {}),
  };
  return {
    start: (input, o) => runs.startRun(run, input, o),
    run: (input, o) => runs.runToEnd(run, input, o),
    getRun: (planId, o) => runs.getRun(run, planId, o),
    follow: (planId, listener) => runs.followRun(run, planId, listener),
    pause: (planId, reason) => runs.pauseRun(run, planId, reason),
    resume: (planId) => runs.resumeRun(run, planId),
    cancel: (planId, reason) => runs.cancelRun(run, planId, reason),
    replaceRemaining: (planId, steps) => runs.replaceRemaining(run, planId, steps),
    validate: (input) => Promise.resolve(validate(options.registry, input)),
    observe: (q) => observe(options.bots, q),
    listBots: () => queries.listBots(query),
    botStatus: (q) => queries.botStatus(query, q),
    capabilities: (q) => queries.capabilities(query, q),
    canaries: () => queries.canaries(query),
    health: (o) => queries.health(query, o),
    incidents: (q) => queries.incidents(query, q),
    listRuns: (q) => queries.listRuns(query, q),
    provenance: (planId, page) => queries.provenance(query, planId, page),
    nodeStates: (planId, page) => queries.nodeStates(query, planId, page),
    planEvents: (planId, page) => queries.planEvents(query, planId, page),
  };
}
