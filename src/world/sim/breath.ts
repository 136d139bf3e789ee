import type { Clock, TimerHandle } from '../../contracts/clock.js';
import { MAX_AIR, PLAYER_EYE_HEIGHT, breathe, eyesInWater, isWaterFilled } from '../breath-rules.js';
import type { Body } from './body.js';
import type { BlockGrid } from './grid.js';

const TICK_MS = 50;

/**
 * Breath by the rules the embedded server's drowning plugin applies (src/world/breath-rules.ts): a game tick every
 * 50 ms of clock time while the bot's eyes are under water or its air is refilling, nothing while it breathes freely
 * with full air. SimWorld's water is all source blocks (its grid holds names, not levels).
 */
export class Breath {
  private timer: TimerHandle | null = null;
  private current = MAX_AIR;

  constructor(
    private readonly clock: Clock,
    private readonly grid: BlockGrid,
    private readonly body: Body,
    private readonly hurt: (health: number) => void,
    /** Lifts an idle body to the surface (Locomotion.float), on the ticks that breathe it. */
    private readonly keepAfloat: () => void,
  ) {}

  /** Ticks of air left (MAX_AIR when full). */
  get air(): number {
    return this.current;
  }

  /** Call whenever the bot or the blocks around it change. */
  check(): void {
    if (this.timer === null && (this.current < MAX_AIR || this.eyesUnder())) this.schedule();
  }

  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.timer = this.clock.setTimeout(() => this.tick(), TICK_MS);
  }

  private tick(): void {
    this.timer = null;
    if (this.body.health <= 0) return;
    // A bot put into deep water with nothing to do floats from the first tick, as the real bot holds jump whenever
    // pathfinder is not walking (keep-afloat.ts), not only once its first action ends.
    this.keepAfloat();
    const { air, damage } = breathe(this.current, this.eyesUnder());
    this.current = air;
    if (damage > 0) this.hurt(this.body.health - damage);
    this.check();
  }

  private eyesUnder(): boolean {
    const { body, grid } = this;
    const eyeY = body.feet.y + PLAYER_EYE_HEIGHT;
    const [x, y, z] = [body.cellX(), Math.floor(eyeY), body.cellZ()];
    const name = grid.get(x, y, z);
    return eyesInWater(name, 0, isWaterFilled(grid.get(x, y + 1, z)), eyeY, y);
  }
}
