import type { StuckType } from '../stuck/detection.js';
import type { StrategyKind } from './strategy.js';

export interface OutcomeStats {
  attempts: number;
  resolved: number;
}

export interface LearningRecord extends OutcomeStats {
  type: StuckType;
  situation: string;
  strategy: StrategyKind;
}

/**
 * Which strategy resolved which stuck type in which situation. Deterministic:
 * plain counts, no time, no randomness; the score is the success rate with one
 * prior success and one prior failure, so an untried strategy scores 0.5 and
 * one failure does not rule a strategy out for good.
 */
export class RecoveryLearning {
  private readonly stats = new Map<string, LearningRecord>();

  record(type: StuckType, situation: string, strategy: StrategyKind, resolved: boolean): void {
    const key = `${type}|${situation}|${strategy}`;
    let entry = this.stats.get(key);
    if (!entry) {
      entry = { type, situation, strategy, attempts: 0, resolved: 0 };
      this.stats.set(key, entry);
    }
    entry.attempts += 1;
    if (resolved) entry.resolved += 1;
  }

  outcomes(type: StuckType, situation: string, strategy: StrategyKind): OutcomeStats {
    const entry = this.stats.get(`${type}|${situation}|${strategy}`);
    return { attempts: entry?.attempts ?? 0, resolved: entry?.resolved ?? 0 };
  }

  score(type: StuckType, situation: string, strategy: StrategyKind): number {
    const { attempts, resolved } = this.outcomes(type, situation, strategy);
    return (resolved + 1) / (attempts + 2);
  }

  /** Every record, for persisting or reporting. */
  toJSON(): LearningRecord[] {
    return [...this.stats.values()].map((entry) => ({ ...entry }));
  }

  static fromJSON(records: readonly LearningRecord[]): RecoveryLearning {
    const learning = new RecoveryLearning();
    for (const record of records)
      learning.stats.set(`${record.type}|${record.situation}|${record.strategy}`, { ...record });
    return learning;
  }
}
