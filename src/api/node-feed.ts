import type { Clock, TimerHandle } from '../contracts/clock.js';
import type { RuntimeHooks } from '../runtime/hooks.js';

/**
 * What the event stream carries of the trees: each bot's runs whose nodes changed since the last batch, at their latest
 * state.
 */
export interface NodeBatch {
  type: 'nodes';
  at: number;
  runs: {
    /** The bot whose executor ran the tree (run ids count per executor). */
    bot: string;
    runId: number;
    tree: string;
    states: Record<string, string>;
    /** Watchdogs that tripped in the window, on the node that declares them. */
    trips: { nodePath: string; kind: string; code: string }[];
    /** Set once the tree run ended; a failure names its code and, where the runtime knows it, the failing node. */
    outcome?: { ok: boolean; code?: string; detail?: string; nodePath?: string };
  }[];
}

type Pending = NodeBatch['runs'][number];

/**
 * Node state changes for the monitor, batched: the runtime reports every change of every tree step, and
 * many bots at 20 Hz would be a message per node per tick; this keeps each run's latest state per node,
 * for every bot of a server, and sends one batch every `everyMs` (only when something changed): however
 * many bots and ticks, at most one node message per window, and nothing that grows with its readers.
 */
export class NodeFeed {
  private pending = new Map<string, Pending>();
  private timer: TimerHandle | null = null;
  private readonly listeners = new Set<(batch: NodeBatch) => void>();

  constructor(
    private readonly clock: Clock,
    private readonly everyMs = 100,
  ) {}

  /** The runtime hooks of one bot's executor. */
  hooksFor(bot: string): RuntimeHooks {
    return {
      nodeStates: ({ runId, tree, changes }) => {
        const run = this.run(bot, runId, tree);
        for (const change of changes) run.states[change.nodePath] = change.to;
      },
      watchdogTrip: ({ runId, tree, kind, failure }) =>
        this.run(bot, runId, tree).trips.push({ nodePath: failure.nodePath, kind, code: failure.code }),
      runEnd: ({ runId, tree, outcome }) => {
        this.run(bot, runId, tree).outcome = outcome.ok
          ? { ok: true }
          : {
              ok: false,
              code: outcome.code,
              detail: outcome.detail,
              ...(outcome.nodePath ? { nodePath: outcome.nodePath } : {}),
            };
      },
    };
  }

  /** Receives every batch; returns the unsubscribe. */
  subscribe(listener: (batch: NodeBatch) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private run(bot: string, runId: number, tree: string): Pending {
    const key = `${runId} ${bot}`;
    let run = this.pending.get(key);
    if (!run) {
      run = { bot, runId, tree, states: {}, trips: [] };
      this.pending.set(key, run);
    }
    this.timer ??= this.clock.setTimeout(() => this.flush(), this.everyMs);
    return run;
  }

  private flush(): void {
    this.timer = null;
    const runs = [...this.pending.values()];
    this.pending = new Map();
    if (runs.length === 0 || this.listeners.size === 0) return;
    const batch: NodeBatch = { type: 'nodes', at: this.clock.now(), runs };
    for (const listener of this.listeners) listener(batch);
  }

  close(): void {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
    this.listeners.clear();
  }
}
