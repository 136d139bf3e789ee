import type { Clock, TimerHandle } from '../../contracts/clock.js';
import type { Random } from '../../random.js';
import { MobDirector, type MobHost, type NightSpawning, TICK_MS } from '../mob-rules/index.js';
import { mobKind } from '../mobs.js';
import type { Body } from './body.js';
import type { DayClock } from './day-clock.js';
import type { EntityStore } from './entity-store.js';
import type { BlockGrid } from './grid.js';

/** The bot as the mob rules name it (the entity store numbers the others from 1). */
export const SIM_BOT_ID = 0;

export interface SimMobsParts {
  clock: Clock;
  grid: BlockGrid;
  body: Body;
  entities: EntityStore;
  day: DayClock;
  random: Random;
  spawning: NightSpawning | null;
  /** Takes health off the bot (SimWorld.setHealth, so `hurt` is emitted). */
  hurtBot: (damage: number) => void;
}

/**
 * SimWorld's mobs living by the shared rules (src/world/mob-rules/): a tick every 50 ms of virtual time, as the
 * server's, while any mob is driven or night spawning is on; no timer otherwise.
 */
export class SimMobs {
  private readonly director: MobDirector;
  private readonly host: MobHost;
  private timer: TimerHandle | null = null;
  private stopped = false;

  constructor(private readonly parts: SimMobsParts) {
    this.director = new MobDirector(parts.random, parts.spawning);
    const { grid, body, entities, day } = parts;
    this.host = {
      terrain: { block: (x, y, z) => grid.get(x, y, z) },
      timeOfDay: () => day.now(),
      players: () => [{ id: SIM_BOT_ID, position: body.feet, targetable: body.health > 0 }],
      mobs: () => entities.driven(),
      hostilePositions: () => entities.hostilePositions(),
      move: (mob, to) => entities.move(mob.id, to),
      hurtPlayer: (_player, damage) => parts.hurtBot(damage),
      hurtMob: (mob, damage) => entities.damage(mob.id, damage),
      spawn: (name, position) => {
        entities.spawn({ name, kind: mobKind(name) ?? 'hostile', position, ai: true });
      },
    };
  }

  /** Starts ticking if there is anything to drive (call after a mob spawns). */
  wake(): void {
    if (this.timer !== null || this.stopped || !this.director.active(this.host)) return;
    this.timer = this.parts.clock.setTimeout(() => this.tick(), TICK_MS);
  }

  /** The bot hit this mob. */
  hitBy(mobId: number): void {
    const mob = this.host.mobs().find((m) => m.id === mobId);
    if (mob) this.director.hitBy(mob, SIM_BOT_ID);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.parts.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private tick(): void {
    this.timer = null;
    this.director.tick(this.host, Math.floor(this.parts.clock.now() / TICK_MS));
    this.wake();
  }
}
