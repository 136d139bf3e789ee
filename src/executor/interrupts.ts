/** What an interrupt decided about the step it took over: it resumes, unless `endStep` says why it ends. */
export interface InterruptVerdict {
  endStep?: string;
  /**
   * What a safety takeover did, when it ran a response ("dig_in from 3 zombies"): the step it interrupted counts it
   * as a repair of its own (`step.repair`, strategy "defence: …"), so a planner sees it in the result and the journal.
   */
  defence?: string;
}

/** Work that preempts the running step at its next safe point; the step resumes after it. */
export interface Interrupt {
  signal: string;
  detail: string;
  run(): Promise<InterruptVerdict | void>;
}

/** Urgent work waiting for the running step to reach a point where it may be preempted. */
export class InterruptQueue {
  private readonly pending: Interrupt[] = [];

  push(interrupt: Interrupt): void {
    this.pending.push(interrupt);
  }

  take(): Interrupt | undefined {
    return this.pending.shift();
  }

  /** Withdraws an interrupt nobody took; false when a step already took it. */
  withdraw(interrupt: Interrupt): boolean {
    const index = this.pending.indexOf(interrupt);
    if (index < 0) return false;
    this.pending.splice(index, 1);
    return true;
  }
}
