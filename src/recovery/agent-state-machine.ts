import type { Clock } from '../contracts/clock.js';

export const AGENT_STATES = ['IDLE', 'PLANNING', 'EXECUTING', 'RECOVERING', 'PAUSED', 'COMPLETED', 'FAILED'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

/**
 * The only moves an agent may make. RECOVERING returns to EXECUTING when a
 * recovery resolves, goes to PLANNING when it escalates, to PAUSED when the
 * incident rate is over its limit, and to FAILED when the ladder is exhausted.
 */
export const AGENT_TRANSITIONS: Readonly<Record<AgentState, readonly AgentState[]>> = {
  IDLE: ['PLANNING', 'EXECUTING', 'PAUSED'],
  PLANNING: ['EXECUTING', 'FAILED', 'PAUSED', 'IDLE'],
  EXECUTING: ['RECOVERING', 'COMPLETED', 'FAILED', 'PAUSED', 'PLANNING'],
  RECOVERING: ['EXECUTING', 'FAILED', 'PLANNING', 'PAUSED', 'IDLE'],
  PAUSED: ['IDLE', 'PLANNING', 'EXECUTING', 'RECOVERING', 'FAILED'],
  COMPLETED: ['IDLE'],
  FAILED: ['IDLE'],
};

export class InvalidTransitionError extends Error {
  constructor(
    readonly from: AgentState,
    readonly to: AgentState,
  ) {
    super(
      `Invalid agent state transition ${from} -> ${to}; from ${from} the agent may go to: ${AGENT_TRANSITIONS[from].join(', ')}`,
    );
    this.name = 'InvalidTransitionError';
  }
}

export interface AgentTransition {
  readonly from: AgentState;
  readonly to: AgentState;
  readonly reason: string;
  readonly at: number;
}

export interface AgentStateMachineOptions {
  clock: Clock;
  initial?: AgentState;
  onTransition?: (transition: AgentTransition) => void;
  /** Transitions kept in `history` (oldest dropped first). */
  historyLimit?: number;
}

export class AgentStateMachine {
  private current: AgentState;
  private since: number;
  private beforePause: AgentState | null = null;
  private readonly log: AgentTransition[] = [];
  private readonly clock: Clock;
  private readonly onTransition: ((transition: AgentTransition) => void) | undefined;
  private readonly historyLimit: number;

  constructor(options: AgentStateMachineOptions) {
    this.clock = options.clock;
    this.current = options.initial ?? 'IDLE';
    this.since = this.clock.now();
    this.onTransition = options.onTransition;
    this.historyLimit = options.historyLimit ?? 100;
  }

  get state(): AgentState {
    return this.current;
  }

  get enteredAt(): number {
    return this.since;
  }

  get history(): readonly AgentTransition[] {
    return this.log;
  }

  canTransition(to: AgentState): boolean {
    return AGENT_TRANSITIONS[this.current].includes(to);
  }

  /** Moves to `to`, or throws InvalidTransitionError naming both states and the allowed ones. */
  transition(to: AgentState, reason: string): AgentTransition {
    if (!this.canTransition(to)) throw new InvalidTransitionError(this.current, to);
    const transition: AgentTransition = { from: this.current, to, reason, at: this.clock.now() };
    if (to === 'PAUSED') this.beforePause = this.current;
    else if (this.current === 'PAUSED') this.beforePause = null;
    this.current = to;
    this.since = transition.at;
    this.log.push(transition);
    if (this.log.length > this.historyLimit) this.log.shift();
    this.onTransition?.(transition);
    return transition;
  }

  /** Leaves PAUSED for the state it was paused from. */
  resume(reason: string): AgentTransition {
    if (this.current !== 'PAUSED' || this.beforePause === null) {
      throw new Error(
        `Cannot resume: the agent is ${this.current}, not PAUSED; resume only applies after a transition to PAUSED`,
      );
    }
    return this.transition(this.beforePause, reason);
  }
}
