import type { Clock, TimerHandle } from '../../contracts/clock.js';
import { HAZARD_DAMAGE_INTERVAL_MS, hazardDamage } from '../hazards.js';
import type { Body } from './body.js';
import type { BlockGrid } from './grid.js';

/**
 * Burns a body in lava or fire (or on magma): the table's damage at once on
 * entry and again every HAZARD_DAMAGE_INTERVAL_MS while it stays, as vanilla
 * and the embedded server's hazard plugin do. Costs nothing while the bot is safe.
 */
export class HazardDamage {
  private timer: TimerHandle | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly grid: BlockGrid,
    private readonly body: Body,
    private readonly hurt: (health: number) => void,
  ) {}

  /** Call whenever the bot or the blocks around it change. */
  check(): void {
    if (this.timer !== null) return;
    this.burn();
  }

  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private burn(): void {
    this.timer = null;
    const { body, grid } = this;
    const [x, y, z] = [body.cellX(), body.cellY(), body.cellZ()];
    const damage = hazardDamage(grid.get(x, y, z), grid.get(x, y + 1, z), grid.get(x, y - 1, z));
    if (damage === 0 || body.health <= 0) return;
    this.hurt(body.health - damage);
    this.timer = this.clock.setTimeout(() => this.burn(), HAZARD_DAMAGE_INTERVAL_MS);
  }
}
