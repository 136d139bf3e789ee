const HOUR_MS = 3_600_000;

/** Counts stuck incidents within the last hour (sliding window). */
export class IncidentRate {
  private readonly times: number[] = [];

  constructor(private readonly windowMs = HOUR_MS) {}

  record(now: number): void {
    this.times.push(now);
  }

  count(now: number): number {
    this.forget(now);
    return this.times.length;
  }

  /** When the count will have dropped below `limit`, so that one more incident stays within it. */
  belowLimitAt(now: number, limit: number): number {
    this.forget(now);
    const index = this.times.length - limit;
    return index < 0 ? now : this.times[index]! + this.windowMs;
  }

  private forget(now: number): void {
    let drop = 0;
    while (drop < this.times.length && now - this.times[drop]! >= this.windowMs) drop++;
    if (drop > 0) this.times.splice(0, drop);
  }
}
