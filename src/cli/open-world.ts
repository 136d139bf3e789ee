import type { Clock } from '../contracts/clock.js';
import type { WorldPort } from '../contracts/world.js';
import { systemClock } from '../clock/system-clock.js';
import { startEmbeddedWorld } from '../world/embedded/embedded-world.js';
import { connectMineflayerWorld } from '../world/mineflayer/connect.js';
import type { Scenario } from '../world/scenario/schema.js';
import { loadScenario } from '../world/scenario/load.js';
import { simWorldFromScenario, SUPERFLAT_GROUND } from '../world/sim-scenario.js';
import { SimWorld } from '../world/sim/sim-world.js';
import { CliUsageError } from './io.js';

export const WORLD_KINDS = ['embedded', 'sim', 'remote'] as const;
export type WorldKind = (typeof WORLD_KINDS)[number];

export interface WorldChoice {
  world: WorldKind;
  scenario?: string;
  seed: number;
  host?: string;
  port?: number;
  /** Default `verbtree`. */
  username?: string;
  /** Default 1.21.4, the version the embedded server speaks. */
  version?: string;
  /** Run the embedded server in a child process, so a server crash cannot take the executor down. */
  isolate?: boolean;
}

export interface OpenedWorld {
  world: WorldPort;
  clock: Clock;
  describe: string;
  close(): Promise<void>;
}

async function scenarioOf(path: string | undefined): Promise<Scenario | undefined> {
  if (!path) return undefined;
  return loadScenario(path).catch((error: Error) => {
    throw new CliUsageError(error.message);
  });
}

/** Opens the world a command runs against: the embedded server with a real bot, SimWorld, or any server given --host. */
export async function openWorld(choice: WorldChoice): Promise<OpenedWorld> {
  const clock = systemClock;
  const username = choice.username ?? 'verbtree';
  const version = choice.version ?? '1.21.4';
  const scenario = await scenarioOf(choice.scenario);
  switch (choice.world) {
    case 'sim': {
      const world = scenario
        ? simWorldFromScenario(scenario, { clock, seed: choice.seed })
        : SimWorld.create({ clock, seed: choice.seed, ground: SUPERFLAT_GROUND, spawn: { x: 0, y: 5, z: 0 } });
      return { world, clock, describe: `SimWorld (seed ${choice.seed}${scenario ? `, scenario ${scenario.name}` : ''})`, close: () => world.close() };
    }
    case 'embedded': {
      const embedded = await startEmbeddedWorld({ clock, isolation: choice.isolate ? 'child-process' : 'in-process', ...(scenario ? { scenario } : {}) });
      try {
        const world = await embedded.connectBot(username);
        const where = `embedded flying-squid ${embedded.server.version} on ${embedded.server.host}:${embedded.server.port}`;
        return { world, clock, describe: `${where}, bot ${username}${scenario ? `, scenario ${scenario.name}` : ''}`, close: () => embedded.stop() };
      } catch (error) {
        await embedded.stop();
        throw error;
      }
    }
    case 'remote': {
      if (!choice.host) throw new CliUsageError('--world remote needs --host (and usually --port, --username, --version)');
      if (scenario) throw new CliUsageError('--scenario applies to the embedded and sim worlds only; a remote server keeps its own world');
      const port = choice.port ?? 25565;
      const world = await connectMineflayerWorld({ host: choice.host, port, username, version, clock });
      return { world, clock, describe: `server ${choice.host}:${port} (Minecraft ${version}), bot ${username}`, close: () => world.close() };
    }
  }
}
