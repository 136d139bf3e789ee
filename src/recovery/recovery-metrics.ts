/** Seed 001's recovery metrics for one ladder: how often recovery began, how often it worked, by which stage, and at what cost. */
export interface RecoveryMetricsView {
  /** Incidents opened: a step's failure climbed the ladder. */
  recoveryTriggers: number;
  /** Incidents a rung resolved (the step then ended ok, verified). */
  recoverySuccesses: number;
  /** Which stage resolved them: a rung's strategy (unstuck, repath, subgoal, …) or `branch`. */
  stageSuccess: Record<string, number>;
  /** Rungs decided, in all: every recovery attempt the budgets counted. */
  recoveryIterations: number;
}

export class RecoveryMetrics {
  private triggers = 0;
  private successes = 0;
  private iterations = 0;
  private readonly byStage = new Map<string, number>();

  triggered(): void {
    this.triggers++;
  }

  iterated(): void {
    this.iterations++;
  }

  resolvedBy(stage: string): void {
    this.successes++;
    this.byStage.set(stage, (this.byStage.get(stage) ?? 0) + 1);
  }

  view(): RecoveryMetricsView {
    return {
      recoveryTriggers: this.triggers,
      recoverySuccesses: this.successes,
      stageSuccess: Object.fromEntries(this.byStage),
      recoveryIterations: this.iterations,
    };
  }
}
