import type { Clock, TimerHandle } from '../../contracts/clock.js';
import { REGEN_INTERVAL_TICKS, exhaust, regenerates, regenerationTick } from '../health-rules.js';
import { TICK_MS } from '../mob-rules/index.js';
import type { Body } from './body.js';

const INTERVAL_MS = REGEN_INTERVAL_TICKS * TICK_MS;

/**
 * Natural regeneration and hunger by the rules the embedded server's health plugin applies (src/world/health-rules.ts):
 * a regeneration tick at every multiple of 80 game ticks of the clock, as the server heals on the multiples of 80 of
 * its tick count. The timer runs only while the body can heal, so a clock run "until nothing is pending" still ends.
 */
export class Regeneration {
  private timer: TimerHandle | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly body: Body,
    /** Sets the healed health (SimWorld's setter, which tells the death watch and calls check again). */
    private readonly heal: (health: number) => void,
  ) {}

  /** Call whenever the body's health or food changes. */
  check(): void {
    if (this.timer !== null || !regenerates(this.body)) return;
    const now = this.clock.now();
    this.timer = this.clock.setTimeout(() => this.tick(), (Math.floor(now / INTERVAL_MS) + 1) * INTERVAL_MS - now);
  }

  /** Exertion (a jump): its exhaustion, paid for in saturation, then food. */
  exhaust(amount: number): void {
    Object.assign(this.body, exhaust(this.body, amount));
  }

  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private tick(): void {
    this.timer = null;
    const { body } = this;
    const after = regenerationTick(body);
    if (after !== body) {
      ({ food: body.food, saturation: body.saturation, exhaustion: body.exhaustion } = after);
      this.heal(after.health);
    }
    this.check();
  }
}
