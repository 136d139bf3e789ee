import { Command } from 'commander';
import { readWorldMarker } from '../../world/embedded/world-folder.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import { wholeIn } from '../whole-number.js';
import { startEmbeddedFor } from '../worlds/embedded.js';

interface WorldOptions {
  scenario?: string;
  worldFolder?: string;
  port: number;
  host: string;
  json?: boolean;
  saveEveryMs?: number;
}

/** Minecraft's own port, so a client's "add server" finds it without one. */
const MINECRAFT_PORT = 25565;
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function portOf(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new CliUsageError(`--port must be a whole number from 0 to 65535 (0 picks a free port), got "${value}"`);
  return port;
}

/**
 * `verbtree world`: the embedded server of `run --world embedded`, alone in its process, so that workers in other
 * processes (`run --host`, `serve --server-host`) and any Minecraft client meet in one world. Its address is the one
 * line on stdout; the server's log goes to stderr.
 */
export function worldCommand(io: CliIO, setExit: (code: number) => void): Command {
  return new Command('world')
    .description(
      'Run the embedded flying-squid server alone and print its address, so bots in other processes (and any Minecraft client) can join one world.',
    )
    .option(
      '--scenario <file>',
      'a scenario file laying out a new world (examples/scenarios/); default a flat, empty one',
    )
    .option(
      '--world-folder <dir>',
      'keep the world in this folder: saved every second and at stop, reopened as it is by the next start (a new or empty folder starts a world)',
    )
    .option(
      '--save-every-ms <ms>',
      'with --world-folder, how often the world is saved (default 1000): what a crash may lose; a vanilla server autosaves every 5 minutes',
      wholeIn('--save-every-ms', 100, 3_600_000),
    )
    .option('--port <n>', `port to listen on (0 picks a free one)`, portOf, MINECRAFT_PORT)
    .option('--host <address>', 'address to bind; 0.0.0.0 lets other machines join', '127.0.0.1')
    .option('--json', 'print the address as one JSON line: {"host","port","version","scenario","worldFolder",…}')
    .addHelpText(
      'after',
      `
The server speaks Minecraft 1.21.4 in offline mode: anyone who reaches the port joins under any name.
A scenario is laid out in a new world only; a reopened world keeps its blocks, players, drops, containers,
furnaces and mobs (the scenario still places and equips players new to it). SIGINT or SIGTERM saves the world
and stops the server (exit 0).

Exit codes: 0 stopped on a signal, the world saved; 2 usage error (bad option, scenario file or folder, port in use).

Examples:
  $ verbtree world --scenario examples/scenarios/forest.json
  $ verbtree world --scenario examples/scenarios/forest.json --world-folder worlds/forest --port 0 --json
  $ verbtree run examples/acquire-wood.plan.json --host 127.0.0.1 --port 25565 --username scout   # in another shell`,
    )
    .action(async (options: WorldOptions) => {
      // Listening before the server starts: a signal during the start stops it once it has started, and saves.
      const stop = signalled();
      const { embedded, scenario, folder, fresh } = await startEmbeddedFor(
        {
          ...(options.scenario ? { scenario: options.scenario } : {}),
          ...(options.worldFolder ? { worldFolder: { path: options.worldFolder, mode: 'keep' } } : {}),
        },
        {
          host: options.host,
          port: options.port,
          log: (line) => io.err(line),
          ...(options.saveEveryMs === undefined ? {} : { saveEveryMs: options.saveEveryMs }),
        },
      ).catch((error: unknown) => {
        stop.dispose();
        throw listenError(error, options) ?? error;
      });
      const { server } = embedded;
      try {
        const scenarioName = scenario?.name ?? 'empty';
        if (options.json)
          io.out(
            JSON.stringify({
              host: server.host,
              port: server.port,
              address: `${server.host}:${server.port}`,
              version: server.version,
              scenario: scenarioName,
              worldFolder: folder,
              worldId: folder ? (readWorldMarker(folder)?.worldId ?? null) : null,
              reopened: !fresh,
            }),
          );
        else
          io.out(
            `verbtree world on ${server.host}:${server.port} (Minecraft ${server.version}, offline mode; scenario ${scenarioName}; ${folder ? `world ${fresh ? 'made' : 'reopened'} in ${folder}` : 'kept in memory only'})`,
          );
        for (const line of notes(options, folder, fresh, scenarioName)) io.err(line);
        const signal = await stop.signal;
        io.err(`stopping on ${signal}${folder ? `: saving the world in ${folder}` : ''}`);
      } finally {
        await embedded.stop();
      }
      io.err(folder ? `stopped; the world is saved in ${folder}` : 'stopped');
      setExit(EXIT.ok);
    });
}

/** The first SIGINT or SIGTERM; a second one kills as usual. */
function signalled(): { signal: Promise<NodeJS.Signals>; dispose(): void } {
  let dispose = () => {};
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    const stop = (received: NodeJS.Signals) => {
      dispose();
      resolve(received);
    };
    dispose = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return { signal, dispose };
}

/** What a user starting the server should know, on stderr beside the server's log. */
function notes(options: WorldOptions, folder: string | null, fresh: boolean, scenario: string): string[] {
  const lines: string[] = [];
  if (folder && !fresh) {
    const madeFrom = readWorldMarker(folder)?.scenario;
    if (madeFrom && madeFrom !== scenario)
      lines.push(
        `note: the world in ${folder} was made from scenario "${madeFrom}"; "${scenario}" is not laid out again, it only places and equips players new to this world`,
      );
  }
  if (!LOOPBACK.has(options.host))
    lines.push(
      `note: --host ${options.host} lets other machines join, and in offline mode any of them may take any bot's name`,
    );
  lines.push(
    folder
      ? 'SIGINT (Ctrl-C) or SIGTERM saves the world and stops the server'
      : 'SIGINT (Ctrl-C) or SIGTERM stops the server; the world lives in memory only (--world-folder keeps it)',
  );
  return lines;
}

/** A port or address the server cannot listen on is the user's to fix: the option and the fix, not a stack. */
function listenError(error: unknown, options: WorldOptions): CliUsageError | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${options.host}:${options.port}`;
  if (code === 'EADDRINUSE')
    return new CliUsageError(
      `--port ${options.port}: ${where} is in use; pick another with --port (0 picks a free one)`,
    );
  if (code === 'EACCES')
    return new CliUsageError(`--port ${options.port}: this user may not listen on ${where}; pick a port above 1023`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new CliUsageError(
      `--host ${options.host}: no address of this machine (${code}); give one of its addresses, 127.0.0.1 or 0.0.0.0`,
    );
  return null;
}
