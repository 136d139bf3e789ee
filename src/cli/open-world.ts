import { resolve } from 'node:path';
import type { Clock } from '../contracts/clock.js';
import type { WorldPort } from '../contracts/world.js';
import { systemClock } from '../clock/system-clock.js';
import { startEmbeddedWorld } from '../world/embedded/embedded-world.js';
import { prepareWorldFolder, readWorldMarker } from '../world/embedded/world-folder.js';
import { connectMineflayerWorld } from '../world/mineflayer/connect.js';
import type { Scenario } from '../world/scenario/schema.js';
import { loadScenario } from '../world/scenario/load.js';
import { simWorldFromScenario, SUPERFLAT_GROUND } from '../world/sim-scenario.js';
import { SimWorld } from '../world/sim/sim-world.js';
import { CliUsageError } from './io.js';
import { scenarioRef, type WorldDescriptor } from './world-identity.js';

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
  /**
   * Keep the embedded world in this folder: 'keep' reopens the world there (or starts one in a new or empty
   * folder), 'fresh' empties it first (a folder verbtree manages). Without it the embedded world lives in memory.
   */
  worldFolder?: { path: string; mode: 'fresh' | 'keep' };
}

export interface OpenedWorld {
  world: WorldPort;
  clock: Clock;
  describe: string;
  /** Which world this is, as the journal records it. */
  descriptor: WorldDescriptor;
  /** Cells the scenario marks protected: no repair may break them. */
  protect?: Scenario['protected'];
  /** Another bot in the same world (the embedded server only): its world port and its descriptor. */
  connectBot?(username: string): Promise<{ world: WorldPort; descriptor: WorldDescriptor }>;
  close(): Promise<void>;
}

async function scenarioOf(path: string | undefined): Promise<Scenario | undefined> {
  if (!path) return undefined;
  return loadScenario(path).catch((error: Error) => {
    throw new CliUsageError(error.message);
  });
}

/**
 * Opens the world a command runs against: the embedded server with a real bot, SimWorld, or any server given --host.
 */
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
      const ref = choice.scenario ? scenarioRef(choice.scenario) : undefined;
      const descriptor: WorldDescriptor = {
        world: 'sim',
        seed: choice.seed,
        ...(ref ? { scenario: ref } : {}),
        identity: simIdentity(choice.seed, ref?.sha256),
      };
      return {
        world,
        clock,
        describe: `SimWorld (seed ${choice.seed}${scenario ? `, scenario ${scenario.name}` : ''})`,
        descriptor,
        protect: scenario?.protected ?? [],
        close: () => world.close(),
      };
    }
    case 'embedded': {
      const folder = choice.worldFolder ? resolve(choice.worldFolder.path) : null;
      let storage: { folder: string; fresh: boolean } | undefined;
      try {
        storage = folder ? { folder, ...prepareWorldFolder(folder, choice.worldFolder!.mode) } : undefined;
      } catch (error) {
        throw new CliUsageError(`--world-folder: ${(error as Error).message}`);
      }
      const embedded = await startEmbeddedWorld({
        clock,
        isolation: choice.isolate ? 'child-process' : 'in-process',
        ...(scenario ? { scenario } : {}),
        ...(storage ? { storage } : {}),
      });
      try {
        const world = await embedded.connectBot(username);
        const where = `embedded flying-squid ${embedded.server.version} on ${embedded.server.host}:${embedded.server.port}`;
        const worldId = folder ? (readWorldMarker(folder)?.worldId ?? null) : null;
        const kept = storage ? `, world ${storage.fresh ? 'made' : 'reopened'} in ${folder}` : '';
        const descriptor: WorldDescriptor = {
          world: 'embedded',
          seed: choice.seed,
          ...(choice.scenario ? { scenario: scenarioRef(choice.scenario) } : {}),
          worldFolder: folder,
          worldId,
          managed: choice.worldFolder?.mode === 'fresh',
          username,
          version,
          isolate: choice.isolate === true,
          identity: worldId
            ? `embedded world ${worldId} in ${folder}`
            : 'embedded world in memory (it ends with this process)',
        };
        const connectBot = async (name: string) => ({
          world: await embedded.connectBot(name),
          descriptor: { ...descriptor, username: name },
        });
        return {
          world,
          clock,
          describe: `${where}, bot ${username}${scenario ? `, scenario ${scenario.name}` : ''}${kept}`,
          descriptor,
          protect: scenario?.protected ?? [],
          connectBot,
          close: () => embedded.stop(),
        };
      } catch (error) {
        await embedded.stop();
        throw error;
      }
    }
    case 'remote': {
      if (!choice.host)
        throw new CliUsageError('--world remote needs --host (and usually --port, --username, --version)');
      if (scenario)
        throw new CliUsageError(
          '--scenario applies to the embedded and sim worlds only; a remote server keeps its own world',
        );
      const port = choice.port ?? 25565;
      const world = await connectMineflayerWorld({ host: choice.host, port, username, version, clock });
      const descriptor: WorldDescriptor = {
        world: 'remote',
        seed: choice.seed,
        host: choice.host,
        port,
        username,
        version,
        identity: `${username}@${choice.host}:${port}`,
      };
      return {
        world,
        clock,
        describe: `server ${choice.host}:${port} (Minecraft ${version}), bot ${username}`,
        descriptor,
        close: () => world.close(),
      };
    }
  }
}

export function simIdentity(seed: number, scenarioSha256: string | undefined): string {
  return `SimWorld seed ${seed}, ${scenarioSha256 ? `scenario sha256 ${scenarioSha256.slice(0, 12)}` : 'no scenario'}`;
}
