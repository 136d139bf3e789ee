import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { connectMineflayerWorld } from '../../src/world/mineflayer/index.js';
import { tempDir } from '../helpers/temp-dir.js';
import { cliProcess, finished } from '../journal/cli-process.js';

/** `verbtree world` as a process of its own, to SIGKILL and start again on its folder and port. */

const SCENARIO = { name: 'fleet', spawn: { x: 0, y: 5, z: 0 }, bot: { inventory: { oak_log: 2 } } };

export interface WorldProcess {
  child: ChildProcess;
  ended: ReturnType<typeof finished>;
  port: number;
}

/** A scenario file (the fleet's: two logs each) and a world folder for it, in a folder removed after the test. */
export async function worldFiles(prefix: string): Promise<{ scenario: string; folder: string }> {
  const dir = await tempDir(prefix);
  const scenario = join(dir, 'scenario.json');
  writeFileSync(scenario, JSON.stringify(SCENARIO));
  return { scenario, folder: join(dir, 'world') };
}

/** `verbtree world` on the folder (and port, 0 for a free one) with `extra` options, once it has printed its address. */
export async function startWorld(
  files: { scenario: string; folder: string },
  port: number,
  extra: readonly string[] = [],
): Promise<WorldProcess> {
  const child = cliProcess([
    'world',
    ...['--scenario', files.scenario, '--world-folder', files.folder, '--port', String(port), '--json'],
    ...extra,
  ]);
  const ended = finished(child);
  const [line] = (await Promise.race([
    once(createInterface({ input: child.stdout! }), 'line'),
    ended.then(({ code, err }) => {
      throw new Error(`verbtree world ended (exit ${code}) before printing its address:\n${err}`);
    }),
  ])) as [string];
  return { child, ended, port: (JSON.parse(line) as { port: number }).port };
}

export async function stopWorld(world: WorldProcess): Promise<void> {
  if (world.child.exitCode === null && world.child.signalCode === null) world.child.kill('SIGTERM');
  await world.ended;
}

/** What the bot holds on the server, as it comes back from the world's save when it logs in. */
export async function inventoryOf(port: number, bot: string): Promise<Record<string, number>> {
  const world = await connectMineflayerWorld({ host: '127.0.0.1', port, username: bot });
  try {
    return (await world.observe()).inventory;
  } finally {
    await world.close();
  }
}
