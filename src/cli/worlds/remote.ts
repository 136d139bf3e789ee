import { z } from 'zod';
import { WorldError } from '../../contracts/world.js';
import { stepClock } from '../../clock/lag-discounting-clock.js';
import { connectMineflayerWorld, protocolOf, serverVersion } from '../../world/mineflayer/connect.js';
import { CliUsageError } from '../io.js';
import type { WorldKindSpec } from './kind.js';

/** A remote world is the server and the bot's name: verbtree cannot look inside it, and trusts it to be the same. */
const RemoteDescriptor = z.strictObject({
  world: z.literal('remote'),
  identity: z.string(),
  seed: z.int(),
  host: z.string(),
  port: z.int(),
  username: z.string(),
  version: z.string(),
});
type RemoteDescriptor = z.infer<typeof RemoteDescriptor>;

const DEFAULT_PORT = 25565;

export const remoteWorld: WorldKindSpec<RemoteDescriptor> = {
  kind: 'remote',
  summary: 'a Minecraft server you run, joined as a player over the network (offline mode)',
  reads: ['host', 'port', 'username', 'version', 'auth'],
  needs: ['host'],
  chosenBy: 'host',
  refuses: { scenario: 'a remote server keeps its own world' },
  bots: 'share',
  config: {
    host: z.string().min(1),
    port: z.int().min(1).max(65_535).optional(),
    auth: z.enum(['offline', 'microsoft']).optional(),
  },
  descriptor: RemoteDescriptor,

  async open(settings) {
    if (!settings.host) throw new CliUsageError('a remote world needs the host of its server');
    const clock = stepClock;
    const { host } = settings;
    const port = settings.port ?? DEFAULT_PORT;
    const username = settings.username ?? 'verbtree';
    const version = await versionToSpeak(host, port, settings.version ?? '1.21.4');
    const auth = settings.auth ?? 'offline';
    const world = await connectMineflayerWorld({ host, port, username, version, clock, auth });
    return {
      world,
      clock,
      describe: `server ${host}:${port} (Minecraft ${version}), bot ${username}`,
      descriptor: {
        world: 'remote',
        seed: settings.seed,
        host,
        port,
        username,
        version,
        identity: `${username}@${host}:${port}`,
      },
      close: () => world.close(),
    };
  },

  notTheSame: () => null,

  /** The server kept its world; the bot joins it again. */
  reopen(descriptor) {
    return remoteWorld.open(descriptor);
  },
};

/**
 * `auto`: the version the server says it speaks. A version asked for that the server does not speak is refused naming
 * both, before a login that would end in a generic disconnect. A server that gives no status answer is joined as
 * asked (its login says what is wrong); `auto` then cannot be resolved.
 */
export async function versionToSpeak(host: string, port: number, asked: string): Promise<string> {
  const speaks = await serverVersion(host, port);
  if (asked === 'auto') {
    if (!speaks)
      throw new WorldError(
        'world_disconnected',
        `--version auto could not learn the version of ${host}:${port}: it gave no status answer; give --version <mc-version>`,
      );
    return speaks.version;
  }
  if (speaks && speaks.protocol !== protocolOf(asked))
    throw new CliUsageError(
      `the server at ${host}:${port} speaks Minecraft ${speaks.version}, not ${asked} (--version): give --version ${speaks.version} or --version auto`,
    );
  return asked;
}
