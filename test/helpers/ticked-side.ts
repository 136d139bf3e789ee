import type { ManualClock } from '../../src/clock/index.js';
import type { EntityInfo, LivingEntity, ObservationQuery, Vec3Like, WorldPort } from '../../src/contracts/world.js';
import type { EmbeddedWorld } from '../../src/world/embedded/index.js';
import { TICK_MS } from '../../src/world/mob-rules/index.js';
import type { SimWorld } from '../../src/world/sim/index.js';
import { onClock } from './world-pair.js';

/**
 * A world read game tick by game tick, from its truth, for a parity file (world-pair.ts) whose cases watch mobs move:
 * SimWorld on its manual clock, the embedded server on its own ticks.
 */
export interface TickedSide {
  world: WorldPort;
  /** Waits for the world's next game tick: its number. */
  tick(): Promise<number>;
  mobs(look: NonNullable<ObservationQuery['entities']>): Promise<LivingEntity[]>;
  /** What the world shows of a mob: a creeper swelling, a mob after someone. */
  shown(id: number): Pick<EntityInfo, 'swelling' | 'aggressive'>;
  /** The bot as the last tick's rules saw it. */
  bot(): { position: Vec3Like; health: number };
  setTimeOfDay(ticks: number): void;
  /** Waits for an actuator the world runs (SimWorld's on its clock). */
  finish(started: Promise<void>): Promise<void>;
}

export function simTicked(world: SimWorld, clock: ManualClock): TickedSide {
  return {
    world,
    async tick() {
      await clock.advance(TICK_MS);
      return Math.floor(clock.now() / TICK_MS);
    },
    mobs: async (look) => (await world.observe({ entities: look })).entities!,
    shown(id) {
      const { swelling, aggressive } = world.entities().find((e) => e.id === id) ?? {};
      return { swelling: swelling === true, aggressive: aggressive === true };
    },
    bot: () => ({ position: world.position(), health: world.health() }),
    setTimeOfDay: (ticks) => void world.timeOfDay(ticks),
    finish: (started) => onClock(clock, started),
  };
}

type TickListener = (delta: number, tick: number) => void;
interface SquidInternals {
  on(event: 'tick', listener: TickListener): void;
  removeListener(event: 'tick', listener: TickListener): void;
  _writeArray(packet: string, data: unknown, players: unknown): void;
}
type MetadataPacket = { entityId: number; metadata: { key: number; value: unknown }[] };
/** Where a mob's entity metadata holds its flags (the aggressive bit, 4) and a creeper's swell (1: swelling). */
const MOB_FLAGS = 15;
const AGGRESSIVE = 4;
const SWELL_DIR = 16;

/**
 * The embedded server read on its game ticks: the player as the tick's rules saw it (its moves arrive between ticks),
 * the mobs once the tick's work is done (flying-squid moves a mob through promise hooks that finish after the tick's
 * listeners), and what it shows of a mob as it sends it to its players.
 */
export function serverTicked(world: WorldPort, embedded: EmbeddedWorld, username: string): TickedSide {
  const serv = (embedded.server as unknown as { serv: SquidInternals }).serv;
  const shown = new Map<number, Pick<EntityInfo, 'swelling' | 'aggressive'>>();
  const write = serv._writeArray.bind(serv);
  serv._writeArray = (packet, data, players) => {
    if (packet === 'entity_metadata') {
      const { entityId, metadata } = data as MetadataPacket;
      const was = shown.get(entityId) ?? { swelling: false, aggressive: false };
      const swell = metadata.find((m) => m.key === SWELL_DIR);
      const flags = metadata.find((m) => m.key === MOB_FLAGS);
      shown.set(entityId, {
        swelling: swell ? swell.value === 1 : was.swelling,
        aggressive: flags ? ((flags.value as number) & AGGRESSIVE) !== 0 : was.aggressive,
      });
    }
    write(packet, data, players);
  };
  const player = () => embedded.server.player(username)!;
  let bot = player();
  return {
    world,
    tick: () =>
      new Promise((resolve) => {
        const next: TickListener = (_delta, tick) => {
          serv.removeListener('tick', next);
          bot = player();
          setImmediate(() => resolve(tick));
        };
        serv.on('tick', next);
      }),
    mobs: (look) => embedded.server.livingEntities(look, bot.position),
    shown: (id) => shown.get(id) ?? { swelling: false, aggressive: false },
    bot: () => bot,
    setTimeOfDay: (ticks) => embedded.server.setTimeOfDay(ticks),
    finish: (started) => started,
  };
}
