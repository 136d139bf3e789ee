import { describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/clock/index.js';
import type { WorldPort } from '../../src/contracts/world.js';
import type { EmbeddedWorld } from '../../src/world/embedded/index.js';
import type { SquidPlayer } from '../../src/world/embedded/squid-types.js';
import { REGEN_INTERVAL_TICKS } from '../../src/world/health-rules.js';
import { TICK_MS } from '../../src/world/mob-rules/index.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import type { SimWorld } from '../../src/world/sim/index.js';
import { onClock, worldPair } from '../helpers/world-pair.js';

/*
 * Natural regeneration and eating on both worlds (src/world/health-rules.ts): the same vitals set on each, the same
 * number of regeneration ticks let pass, the health, food and saturation read from each world's truth after each one.
 * The bot starts at full health (nothing heals before a case sets its vitals) with a loaf of bread in hand.
 */

const SCENARIO = parseScenario({ name: 'regeneration-parity', bot: { inventory: { bread: 1 } } });
const INTERVAL_MS = REGEN_INTERVAL_TICKS * TICK_MS;

interface Vitals {
  health: number;
  food: number;
  saturation: number;
}

interface Side {
  world: WorldPort;
  set(vitals: Vitals): void;
  read(): Vitals;
  /** Waits until just after the world's next regeneration tick. */
  nextRegenerationTick(): Promise<void>;
  finish(started: Promise<void>): Promise<void>;
}

function simSide(world: SimWorld, clock: ManualClock): Side {
  return {
    world,
    set: ({ health, food, saturation }) => void world.setHealth(health).setFood(food, saturation),
    read: () => ({ health: world.health(), food: world.food(), saturation: world.saturation() }),
    nextRegenerationTick: () => clock.advance(INTERVAL_MS - (clock.now() % INTERVAL_MS)),
    finish: (started) => onClock(clock, started),
  };
}

type TickListener = (delta: number, tick: number) => void;
interface SquidInternals {
  players: SquidPlayer[];
  on(event: 'tick', listener: TickListener): void;
  removeListener(event: 'tick', listener: TickListener): void;
}

function serverSide(world: WorldPort, embedded: EmbeddedWorld, username: string): Side {
  const serv = (embedded.server as unknown as { serv: SquidInternals }).serv;
  const player = () => serv.players.find((p) => p.username === username)!;
  return {
    world,
    set({ health, food, saturation }) {
      const p = player();
      p.foodSaturation = saturation;
      p.updateFood(food);
      p.updateHealth(health);
    },
    read: () => ({ health: player().health, food: player().food, saturation: player().foodSaturation }),
    // The health plugin's tick listener was added before this one, so this one reads what the tick healed.
    nextRegenerationTick: () =>
      new Promise((resolve) => {
        const next: TickListener = (_delta, tick) => {
          if (tick % REGEN_INTERVAL_TICKS !== 0) return;
          serv.removeListener('tick', next);
          resolve();
        };
        serv.on('tick', next);
      }),
    finish: (started) => started,
  };
}

async function ticks(side: Side, count: number): Promise<Vitals[]> {
  const seen: Vitals[] = [];
  for (let tick = 0; tick < count; tick++) {
    await side.nextRegenerationTick();
    seen.push(side.read());
  }
  return seen;
}

describe('natural regeneration on SimWorld and the embedded server', () => {
  const both = worldPair(SCENARIO, 'healer', { sim: simSide, server: serverSide });

  it('at 10 health, 18 food and 5 saturation: four points healed, paid in saturation then food, then no more', async () => {
    const [sim, server] = await both(async (side) => {
      await side.nextRegenerationTick();
      side.set({ health: 10, food: 18, saturation: 5 });
      return ticks(side, 5);
    });
    expect(sim).toEqual([
      { health: 11, food: 18, saturation: 4 },
      { health: 12, food: 18, saturation: 2 },
      { health: 13, food: 18, saturation: 1 },
      { health: 14, food: 17, saturation: 0 },
      { health: 14, food: 17, saturation: 0 },
    ]);
    expect(server).toEqual(sim);
  }, 60_000);

  it('too hungry to heal, a loaf of bread brings food and saturation back and it heals again', async () => {
    const [sim, server] = await both(async (side) => {
      // Right after a regeneration tick, so the 1.6 s meal ends before the next one.
      await side.nextRegenerationTick();
      side.set({ health: 10, food: 14, saturation: 0 });
      await side.finish(side.world.consume('bread'));
      return [side.read(), ...(await ticks(side, 2))];
    });
    expect(sim).toEqual([
      { health: 10, food: 19, saturation: 6 },
      { health: 11, food: 19, saturation: 5 },
      { health: 12, food: 19, saturation: 3 },
    ]);
    expect(server).toEqual(sim);
  }, 60_000);
});
