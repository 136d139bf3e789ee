import { resolve } from 'node:path';
import { z } from 'zod';
import { stepClock } from '../../clock/lag-discounting-clock.js';
import { startEmbeddedWorld } from '../../world/embedded/embedded-world.js';
import { prepareWorldFolder, readSavedAt, readWorldMarker } from '../../world/embedded/world-folder.js';
import { CliUsageError } from '../io.js';
import { ScenarioRef, scenarioOf, scenarioRef, type WorldKindSpec, type WorldSettings } from './kind.js';

/** An embedded world is the folder it is kept in and the id written there when it was made. */
const EmbeddedDescriptor = z.strictObject({
  world: z.literal('embedded'),
  identity: z.string(),
  seed: z.int(),
  scenario: ScenarioRef.optional(),
  /** Null: the world lived in the server's memory and ended with it. */
  worldFolder: z.string().nullable(),
  worldId: z.string().nullable(),
  /** A folder verbtree made for the plan (under the journal's worlds/), which a restart may empty. */
  managed: z.boolean(),
  username: z.string(),
  version: z.string(),
  isolate: z.boolean(),
});
type EmbeddedDescriptor = z.infer<typeof EmbeddedDescriptor>;

export const embeddedWorld: WorldKindSpec<EmbeddedDescriptor> = {
  kind: 'embedded',
  summary: 'a real flying-squid server started here, with a real bot (the scenario laid out first, if given)',
  reads: ['scenario', 'username', 'isolate', 'worldFolder'],
  bots: 'share',
  config: { scenario: z.string().min(1).optional() },
  descriptor: EmbeddedDescriptor,
  open: openEmbedded,

  /** Kept only in memory, or its folder gone or holding another world: it cannot be the same. */
  notTheSame(descriptor) {
    if (descriptor.worldFolder === null || descriptor.worldId === null)
      return 'its embedded world was kept in memory only and ended with the process that ran it';
    const marker = readWorldMarker(descriptor.worldFolder);
    if (!marker) return `its world folder ${descriptor.worldFolder} is gone (or holds no verbtree world)`;
    if (marker.worldId !== descriptor.worldId)
      return `its world folder ${descriptor.worldFolder} now holds another world (id ${marker.worldId}, the plan ran in ${descriptor.worldId})`;
    return null;
  },

  savedAt: (descriptor) => (descriptor.worldFolder ? (readSavedAt(descriptor.worldFolder) ?? 0) : undefined),

  /** It reopens from its folder, the scenario not laid out again. */
  async reopen(descriptor) {
    const { scenario, worldFolder, username, isolate, seed } = descriptor;
    const opened = await openEmbedded({
      seed,
      username,
      isolate,
      worldFolder: { path: worldFolder!, mode: 'keep' },
      ...(scenario && scenario.sha256 !== 'missing' ? { scenario: scenario.path } : {}),
    });
    return { ...opened, descriptor };
  },
};

/** Where a server started alone listens, and where its log goes (`verbtree world`); a bot's server takes the defaults. */
export interface EmbeddedListen {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  log?: (line: string) => void;
  /** How often a kept world is saved (a second unless said): what a SIGKILL may lose. */
  saveEveryMs?: number;
}

/**
 * The embedded server a command starts, as `--scenario` and `--world-folder` ask: its scenario loaded and its
 * folder readied first, so a bad file or folder is the user's to fix (a usage error naming the option), not a stack.
 */
export async function startEmbeddedFor(
  settings: Pick<WorldSettings, 'scenario' | 'isolate' | 'worldFolder'>,
  listen: EmbeddedListen = {},
) {
  const scenario = await scenarioOf(settings.scenario);
  const folder = settings.worldFolder ? resolve(settings.worldFolder.path) : null;
  const { saveEveryMs, ...where } = listen;
  let storage: { folder: string; fresh: boolean; saveEveryMs?: number } | undefined;
  try {
    const every = saveEveryMs === undefined ? {} : { saveEveryMs };
    storage = folder ? { folder, ...prepareWorldFolder(folder, settings.worldFolder!.mode), ...every } : undefined;
  } catch (error) {
    throw new CliUsageError(`--world-folder: ${(error as Error).message}`);
  }
  const embedded = await startEmbeddedWorld({
    clock: stepClock,
    isolation: settings.isolate ? 'child-process' : 'in-process',
    ...(scenario ? { scenario } : {}),
    ...(storage ? { storage } : {}),
    ...where,
  });
  const worldId = folder ? (readWorldMarker(folder)?.worldId ?? null) : null;
  return { embedded, scenario, folder, fresh: storage?.fresh ?? true, worldId };
}

async function openEmbedded(settings: WorldSettings) {
  const clock = stepClock;
  const username = settings.username ?? 'verbtree';
  const { embedded, scenario, folder, fresh, worldId } = await startEmbeddedFor(settings);
  try {
    const world = await embedded.connectBot(username);
    const where = `embedded flying-squid ${embedded.server.version} on ${embedded.server.host}:${embedded.server.port}`;
    const kept = folder ? `, world ${fresh ? 'made' : 'reopened'} in ${folder}` : '';
    const descriptor: EmbeddedDescriptor = {
      world: 'embedded',
      seed: settings.seed,
      ...(settings.scenario ? { scenario: scenarioRef(settings.scenario) } : {}),
      worldFolder: folder,
      worldId,
      managed: settings.worldFolder?.mode === 'fresh',
      username,
      // The server speaks its own version, whatever a command line asks: its bots speak it too.
      version: embedded.server.version,
      isolate: settings.isolate === true,
      identity: worldId
        ? `embedded world ${worldId} in ${folder}`
        : 'embedded world in memory (it ends with this process)',
    };
    return {
      world,
      clock,
      describe: `${where}, bot ${username}${scenario ? `, scenario ${scenario.name}` : ''}${kept}`,
      descriptor,
      protect: scenario?.protected ?? [],
      connectBot: async (name: string) => ({
        world: await embedded.connectBot(name),
        descriptor: { ...descriptor, username: name },
      }),
      close: () => embedded.stop(),
    };
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}
