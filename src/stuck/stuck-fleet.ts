import type { Clock } from '../contracts/clock.js';
import type { StuckDetectionConfigInput } from './config.js';
import { StuckDetectorSet } from './detector-set.js';
import { StuckStateArena } from './state-arena.js';
import { StuckMonitor } from './stuck-monitor.js';

const AGENTS_PER_ARENA = 256;

/**
 * Monitors for many agents that share one configuration: one detector set for
 * all of them, and each agent's state a block of a shared arena (grown an arena
 * at a time), so an agent costs its slots and nothing more.
 */
export class StuckFleet {
  private static readonly byConfig = new Map<string, StuckFleet>();
  private readonly detectors: StuckDetectorSet;
  private readonly arenas: StuckStateArena[] = [];

  private constructor(config: StuckDetectionConfigInput) {
    this.detectors = new StuckDetectorSet(config);
  }

  /** The process-wide fleet for this configuration. */
  static for(config: StuckDetectionConfigInput): StuckFleet {
    const key = JSON.stringify(config);
    let fleet = StuckFleet.byConfig.get(key);
    if (!fleet) {
      fleet = new StuckFleet(config);
      StuckFleet.byConfig.set(key, fleet);
    }
    return fleet;
  }

  monitor(clock: Clock): StuckMonitor {
    let arena = this.arenas.at(-1);
    if (!arena || arena.full) {
      arena = new StuckStateArena(this.detectors, AGENTS_PER_ARENA);
      this.arenas.push(arena);
    }
    return new StuckMonitor({ clock, detectors: this.detectors, memory: arena.allocate() });
  }
}
