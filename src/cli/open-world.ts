import type { Clock } from '../contracts/clock.js';
import type { WorldPort } from '../contracts/world.js';
import { systemClock } from '../clock/system-clock.js';
import { loadScenario } from '../world/scenario/load.js';
import { simWorldFromScenario, SUPERFLAT_GROUND } from '../world/sim-scenario.js';
import { SimWorld } from '../world/sim/sim-world.js';
import { CliUsageError } from './io.js';

export const WORLD_KINDS = ['sim'] as const;
export type WorldKind = (typeof WORLD_KINDS)[number];

export interface WorldChoice {
  world: WorldKind;
  scenario?: string;
  seed: number;
}

export interface OpenedWorld {
  world: WorldPort;
  clock: Clock;
  describe: string;
  close(): Promise<void>;
}

/** Opens the world a command runs against; the caller must close it. */
export async function openWorld(choice: WorldChoice): Promise<OpenedWorld> {
  if (!WORLD_KINDS.includes(choice.world)) {
    throw new CliUsageError(`unknown world "${choice.world}"; use one of: ${WORLD_KINDS.join(', ')}`);
  }
  const clock = systemClock;
  const scenario = choice.scenario ? await loadScenario(choice.scenario).catch((error: Error) => {
    throw new CliUsageError(error.message);
  }) : undefined;
  const world = scenario
    ? simWorldFromScenario(scenario, { clock, seed: choice.seed })
    : SimWorld.create({ clock, seed: choice.seed, ground: SUPERFLAT_GROUND, spawn: { x: 0, y: 5, z: 0 } });
  return {
    world,
    clock,
    describe: `SimWorld (seed ${choice.seed}${scenario ? `, scenario ${scenario.name}` : ''})`,
    close: () => world.close(),
  };
}
