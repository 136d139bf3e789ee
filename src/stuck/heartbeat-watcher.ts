import type { Clock, TimerHandle } from '../contracts/clock.js';
import type { StuckDetectionConfig } from './config.js';
import { createDetection, type Detection } from './detection.js';

/**
 * Detects a zombie executor loop from outside it: the loop calls `beat()` each
 * tick; the watcher runs on its own clock timer, so it keeps checking when the
 * loop it watches has stopped. Reports once per stall and re-arms on the next beat.
 */
export class HeartbeatWatcher {
  private lastBeat: number;
  private reported = false;
  private timer: TimerHandle | null = null;
  private readonly check = (): void => this.onCheck();

  constructor(
    private readonly clock: Clock,
    private readonly config: StuckDetectionConfig['heartbeat'],
    private readonly onZombie: (detection: Detection) => void,
    private readonly label = 'executor loop',
  ) {
    this.lastBeat = clock.now();
  }

  get running(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (this.timer) return;
    this.lastBeat = this.clock.now();
    this.reported = false;
    this.timer = this.clock.setTimeout(this.check, this.config.checkEveryMs);
  }

  stop(): void {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  beat(): void {
    this.lastBeat = this.clock.now();
    this.reported = false;
  }

  private onCheck(): void {
    this.timer = this.clock.setTimeout(this.check, this.config.checkEveryMs);
    const now = this.clock.now();
    const silentMs = now - this.lastBeat;
    if (this.reported || silentMs <= this.config.timeoutMs) return;
    this.reported = true;
    this.onZombie(
      createDetection(
        'heartbeat',
        `${this.label} has not ticked for ${silentMs} ms (limit ${this.config.timeoutMs} ms): zombie`,
        this.lastBeat,
        now,
        { loop: this.label, silentMs, timeoutMs: this.config.timeoutMs },
      ),
    );
  }
}
