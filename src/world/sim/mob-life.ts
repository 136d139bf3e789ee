import type { Clock, TimerHandle } from '../../contracts/clock.js';
import type { Random } from '../../random.js';
import type { EntityInfo, Vec3Like } from '../../contracts/world.js';
import {
  type BlastedBlocks,
  blastDrops,
  knockedBackTo,
  Melee,
  MobDirector,
  type MobHost,
  mobLoot,
  type NightSpawning,
  TICK_MS,
} from '../mob-rules/index.js';
import { mobKind } from '../mobs.js';
import { AIR } from './block-data.js';
import type { Body } from './body.js';
import { canBreak } from './dig.js';
import type { DayClock } from './day-clock.js';
import type { EntityStore, MidAct } from './entity-store.js';
import type { BlockGrid } from './grid.js';
import type { Terrain } from './terrain.js';

/** The bot as the mob rules name it (the entity store numbers the others from 1). */
export const SIM_BOT_ID = 0;

export interface SimMobsParts {
  clock: Clock;
  grid: BlockGrid;
  body: Body;
  entities: EntityStore;
  day: DayClock;
  random: Random;
  /** Draws each killed mob's loot: a stream of its own, so a kill never shifts the mobs' decisions. */
  lootRandom: Random;
  spawning: NightSpawning | null;
  terrain: Terrain;
  /** Blocks the world will not break (SimWorld's `unbreakable`, beyond vanilla's). */
  unbreakable: ReadonlySet<string>;
  /** Takes health off the bot (SimWorld's health setter, so `hurt` is emitted), naming the mob that dealt it. */
  hurtBot: (damage: number, by: string) => void;
  /** Blocks changed around the bot (a blast): it falls if its floor went. */
  blocksChanged: () => void;
}

/**
 * SimWorld's mobs living by the shared rules (src/world/mob-rules/): a tick every 50 ms of virtual time, as the
 * server's, while any mob is driven or night spawning is on; no timer otherwise.
 */
export class SimMobs {
  private readonly director: MobDirector;
  private readonly melee = new Melee();
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
      wornBy: () => [...body.worn.values()],
      hurtPlayer: (_player, damage, by) => parts.hurtBot(damage, by.name),
      hurtMob: (mob, damage) => this.dropLoot(entities.damage(mob.id, damage), false),
      despawn: (mob) => entities.remove(mob.id),
      swelling: (mob, lit) => entities.show(mob.id, { swelling: lit }),
      aggressive: (mob, on) => entities.show(mob.id, { aggressive: on }),
      explode: (mob, blocks) => this.blowUp(mob.id, blocks),
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

  /**
   * The bot's swing landed on `target`: the melee rules' damage comes off its health, a fresh hit pushes it back where it
   * has room to stand, and a hostile one it hurt turns on the bot.
   */
  struck(target: EntityInfo, how: { held: string | null; falling: boolean; sprinting: boolean }): void {
    const { entities, body, grid } = this.parts;
    const hit = this.melee.hit(SIM_BOT_ID, target, how, this.now());
    if (hit.damage === 0) return;
    const killed = entities.damage(target.id, hit.damage);
    if (killed) {
      this.melee.forget(target.id);
      this.dropLoot(killed, true);
      return;
    }
    const terrain = { block: (x: number, y: number, z: number) => grid.get(x, y, z) };
    if (hit.knockback > 0) entities.move(target.id, knockedBackTo(terrain, body.feet, target.position, hit.knockback));
    const mob = this.host.mobs().find((m) => m.id === target.id);
    if (mob) this.director.hitBy(mob, SIM_BOT_ID);
  }

  /** A mob died (null: nothing did): its loot (mob-rules/loot.ts) lies where it fell. */
  private dropLoot(dead: EntityInfo | null, byBot: boolean): void {
    if (!dead) return;
    const { entities, terrain, lootRandom } = this.parts;
    const { x, y, z } = dead.position;
    const cell = { x: Math.floor(x), y: Math.floor(y), z: Math.floor(z) };
    for (const stack of mobLoot(dead.name, lootRandom, byBot))
      entities.dropItem(terrain, cell, stack.item, stack.count);
  }

  /** A creeper's blast: it is gone, the blocks it broke are air, and the `dropped` ones' items lie where they were. */
  private blowUp(creeper: number, { broken, dropped }: BlastedBlocks): void {
    const { entities, grid, terrain, unbreakable } = this.parts;
    entities.remove(creeper);
    const names = new Map(broken.map((cell) => [cell, grid.get(cell.x, cell.y, cell.z)]));
    for (const cell of broken) if (canBreak(names.get(cell)!, unbreakable)) grid.set(cell.x, cell.y, cell.z, AIR);
    for (const cell of dropped) {
      const name = names.get(cell)!;
      if (canBreak(name, unbreakable)) for (const drop of blastDrops(name)) entities.dropItem(terrain, cell, drop);
    }
    this.parts.blocksChanged();
  }

  /** How far a creeper's fuse has burnt, in ticks (undefined for a mob the rules have not driven yet). */
  fuseOf(id: number): number | undefined {
    return this.director.fuseOf(id);
  }

  /** A mob spawned mid-act (SpawnEntity.midAct): after the bot when it was after someone, its fuse where it was. */
  resume(mob: { id: number; name: string; position: Vec3Like }, shown: MidAct): void {
    const hunting = shown.aggressive === true || shown.swelling === true;
    this.director.resume(
      { id: mob.id, name: mob.name, position: { ...mob.position } },
      {
        target: hunting ? SIM_BOT_ID : null,
        ...(shown.swelling === undefined ? {} : { swelling: shown.swelling }),
        ...(shown.fuseTicks === undefined ? {} : { fuseTicks: shown.fuseTicks }),
      },
    );
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.parts.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private now(): number {
    return Math.floor(this.parts.clock.now() / TICK_MS);
  }

  private tick(): void {
    this.timer = null;
    const tick = this.now();
    // A change of held item starts the attack charge over; SimWorld notices it here and at a swing.
    this.melee.hold(SIM_BOT_ID, this.parts.body.held, tick);
    this.director.tick(this.host, tick);
    this.wake();
  }
}
