import type { Clock, TimerHandle } from '../../contracts/clock.js';
import { type Death, type Vec3Like, WorldError } from '../../contracts/world.js';
import { SPAWN_SATURATION } from '../health-rules.js';
import type { ActuatorRunner } from './actuator-runner.js';
import type { Body } from './body.js';
import { MAX_STAT } from './constants.js';
import type { EntityStore } from './entity-store.js';

/**
 * How long a dead SimWorld bot stays dead: a tick. mineflayer asks to respawn the moment its health reads 0 and the
 * server answers within a tick or so; the window is there so that a command issued at 0 health is refused, as the
 * server would ignore it.
 */
export const RESPAWN_AFTER_MS = 50;

export interface SimDeathParts {
  clock: Clock;
  body: Body;
  runner: ActuatorRunner;
  entities: EntityStore;
  /** The cell it respawns in (the world's spawn). */
  spawn: Vec3Like;
  /** Vanilla's `keepInventory` game rule: off (the default), a death drops the whole pack where it happened. */
  keepInventory: boolean;
  /** Stops the body's movement (a walk in progress, a jump in the air). */
  halt: () => void;
  /** Puts the respawned body in a cell. */
  place: (cell: Vec3Like) => void;
  died: (death: Death) => void;
}

/**
 * Death in SimWorld, as vanilla has it: at 0 health the bot is dead, every command in flight fails `died` and every
 * new one is refused until it respawns, RESPAWN_AFTER_MS later, at the spawn with full health and food (and
 * vanilla's 5 saturation); its pack (held and worn items too) lies where it died unless `keepInventory`. The world
 * emits `died` once per death.
 */
export class SimDeath {
  private lastCause: string | undefined;
  private respawnTimer: TimerHandle | null = null;

  constructor(private readonly parts: SimDeathParts) {}

  get dead(): boolean {
    return this.respawnTimer !== null;
  }

  /** Called after every change of health: a fall to 0 from above it is a death. */
  healthChanged(before: number, cause: string | undefined): void {
    if (cause !== undefined) this.lastCause = cause;
    if (this.parts.body.health > 0 || before <= 0 || this.dead) return;
    this.die(before);
  }

  /** No respawn after the world closed. */
  stop(): void {
    if (this.respawnTimer !== null) this.parts.clock.clearTimeout(this.respawnTimer);
  }

  private die(healthBefore: number): void {
    const { body, runner, clock } = this.parts;
    const position = { ...body.feet };
    const cause = this.lastCause;
    this.respawnTimer = clock.setTimeout(() => this.respawn(), RESPAWN_AFTER_MS);
    runner.kill(new WorldError('died', `the bot died at ${cellOf(position)}${cause ? ` (${cause})` : ''}`));
    this.parts.halt();
    if (!this.parts.keepInventory) dropPack(body, this.parts.entities, position);
    this.parts.died({ healthBefore, ...(cause ? { cause } : {}), position });
  }

  private respawn(): void {
    const { body, runner } = this.parts;
    this.respawnTimer = null;
    this.lastCause = undefined;
    body.health = MAX_STAT;
    body.food = MAX_STAT;
    body.saturation = SPAWN_SATURATION;
    body.exhaustion = 0;
    this.parts.place(this.parts.spawn);
    runner.revive();
  }
}

/** Everything carried, held and worn falls where the bot died, one stack a kind. */
function dropPack(body: Body, entities: EntityStore, at: Vec3Like): void {
  const carried = new Map(body.items);
  for (const item of body.worn.values()) carried.set(item, (carried.get(item) ?? 0) + 1);
  body.items.clear();
  body.worn.clear();
  body.held = null;
  for (const [name, count] of carried)
    entities.spawn({ name: 'item', kind: 'item', position: { ...at }, item: { name, count } });
}

function cellOf(position: Vec3Like): string {
  return `${Math.floor(position.x)},${Math.floor(position.y)},${Math.floor(position.z)}`;
}
