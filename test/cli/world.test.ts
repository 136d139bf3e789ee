import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import { describe, expect, it } from 'vitest';
import { loadMineflayer } from '../../src/world/mineflayer/load-mineflayer.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { cliProcess, finished } from '../journal/cli-process.js';

/*
 * `verbtree world` as users run it: a process of its own, joined by a bot of another process through the address it
 * prints, stopped by SIGTERM, and started again on the same folder.
 */

const SPAWN = { x: 8, y: 5, z: 8 };
/** On the grass (y 4) two blocks east of the spawn, within the bot's reach. */
const PLACED = new Vec3(SPAWN.x + 2, 5, SPAWN.z);
const scenario = { name: 'world-command', spawn: SPAWN, bot: { inventory: { dirt: 3 } } };

interface Started {
  child: ChildProcess;
  ended: ReturnType<typeof finished>;
  host: string;
  port: number;
  /** The first line it printed: its address. */
  line: string;
}

/** Starts `verbtree world` in a child process and reads its address line. */
async function startWorld(args: string[]): Promise<Started> {
  const child = cliProcess(['world', ...args]);
  const lines = createInterface({ input: child.stdout! });
  const ended = finished(child);
  const [line] = (await Promise.race([
    once(lines, 'line'),
    ended.then(({ code, err }) => {
      throw new Error(`verbtree world ended (exit ${code}) before printing its address:\n${err}`);
    }),
  ])) as [string];
  if (args.includes('--json')) {
    const { host, port } = JSON.parse(line) as { host: string; port: number };
    return { child, ended, host, port, line };
  }
  const [, host, port] = /^verbtree world on (\S+):(\d+) /.exec(line) ?? [];
  if (!host) throw new Error(`no address in the first line: ${line}`);
  return { child, ended, host, port: Number(port), line };
}

/** A plain mineflayer bot, as another process's worker or any client joins. */
async function joinWith(world: Started, username: string): Promise<Bot> {
  const { mineflayer } = loadMineflayer();
  const bot = mineflayer.createBot({
    host: world.host,
    port: world.port,
    username,
    version: '1.21.4',
    auth: 'offline',
  });
  await new Promise<void>((resolve, reject) => {
    bot.once('spawn', () => resolve());
    bot.once('end', (reason) => reject(new Error(`the bot left: ${reason}`)));
  });
  await bot.waitForChunksToLoad();
  return bot;
}

const dirtIn = (bot: Bot) => bot.inventory.items().reduce((sum, i) => sum + (i.name === 'dirt' ? i.count : 0), 0);

/** Resolves once nothing listens on host:port any more (listening there succeeds). */
async function portIsFree(host: string, port: number): Promise<boolean> {
  const probe = createServer();
  try {
    probe.listen(port, host);
    await once(probe, 'listening');
    return true;
  } catch {
    return false;
  } finally {
    probe.close();
  }
}

describe('verbtree world', () => {
  it('serves one world to a bot of another process, saves it on SIGTERM (exit 0, port freed) and reopens it', async () => {
    const dir = await tempDir('verbtree-world-');
    const scenarioFile = join(dir, 'world.scenario.json');
    writeFileSync(scenarioFile, JSON.stringify(scenario));
    const folder = join(dir, 'kept');

    const first = await startWorld(['--scenario', scenarioFile, '--world-folder', folder, '--port', '0', '--json']);
    expect(JSON.parse(first.line)).toMatchObject({ version: '1.21.4', scenario: 'world-command', reopened: false });
    expect(first.port).toBeGreaterThan(0);
    const builder = await joinWith(first, 'builder');
    expect(dirtIn(builder)).toBe(3);
    await builder.equip(builder.registry.itemsByName.dirt!.id, 'hand');
    await builder.placeBlock(builder.blockAt(PLACED.offset(0, -1, 0))!, new Vec3(0, 1, 0));
    expect(builder.blockAt(PLACED)?.name).toBe('dirt');
    // Stopped with the bot still on it, as a fleet's workers would be.
    first.child.kill('SIGTERM');
    const stopped = await first.ended;
    expect(stopped.err).not.toMatch(/\n\s+at /);
    expect(stopped.err).toContain('builder joined from 127.0.0.1 (1 online)');
    expect(stopped.err).toContain('builder left');
    expect(stopped.err).toContain(`stopped; the world is saved in ${folder}`);
    expect(stopped.code).toBe(0);
    builder.end();
    expect(await portIsFree(first.host, first.port)).toBe(true);

    // The same port again: the first process let it go. Without --scenario: the kept world is not laid out anew.
    const second = await startWorld(['--world-folder', folder, '--port', String(first.port)]);
    expect(second.line).toContain(`world reopened in ${folder}`);
    const back = await joinWith(second, 'builder');
    try {
      expect(back.blockAt(PLACED)?.name).toBe('dirt');
      expect(dirtIn(back)).toBe(2);
    } finally {
      second.child.kill('SIGTERM');
      back.end();
    }
    const again = await second.ended;
    expect(again.err).toContain('was made from scenario "world-command"; "empty" is not laid out again');
    expect(again.code).toBe(0);
  }, 60_000);

  it('without a folder keeps the world in memory, says so, and stops on SIGINT (exit 0)', async () => {
    const world = await startWorld(['--port', '0']);
    expect(world.line).toMatch(
      /^verbtree world on 127\.0\.0\.1:\d+ \(Minecraft 1\.21\.4, offline mode; scenario empty; kept in memory only\)$/,
    );
    world.child.kill('SIGINT');
    const { code, err } = await world.ended;
    expect(err).toContain('the world lives in memory only (--world-folder keeps it)');
    expect(err).toContain('stopping on SIGINT');
    // verbtree's chest handler replaces flying-squid's on purpose: no warning about it in the log.
    expect(err).not.toContain('registered twice');
    expect(code).toBe(0);
    expect(await portIsFree(world.host, world.port)).toBe(true);
  });

  it('--help says how to start, join and stop it', async () => {
    const { code, out } = await cli('world', '--help');
    expect(code).toBe(0);
    for (const part of ['--scenario <file>', '--world-folder <dir>', '--port <n>', '0 picks a free one', '--json'])
      expect(out).toContain(part);
    expect(out).toContain('SIGINT or SIGTERM saves the world');
    expect(out).toContain('verbtree run examples/acquire-wood.plan.json --host 127.0.0.1 --port 25565');
  });

  it('refuses bad options, a bad scenario and a foreign folder with the option and the fix (exit 2, no stack)', async () => {
    const dir = await tempDir('verbtree-world-bad-');
    const foreign = join(dir, 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'notes.txt'), 'mine');
    const cases: [string[], string][] = [
      [['--port', 'abc'], '--port must be a whole number from 0 to 65535 (0 picks a free port), got "abc"'],
      [['--port', '70000'], '--port must be a whole number from 0 to 65535'],
      [['--scenario', 'test/fixtures/bad.scenario.json'], 'blocks[0].block: unknown block "oak_logg"'],
      [['--scenario', join(dir, 'missing.json')], 'no such file; check the path'],
      [
        ['--world-folder', foreign, '--port', '0'],
        `--world-folder: ${foreign} is not empty and holds no verbtree world`,
      ],
      [['--colour'], "unknown option '--colour'"],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await cli('world', ...args);
      expect({ args, err }).toEqual({ args, err: expect.stringContaining(message) as string });
      expect(err).not.toMatch(/\n\s+at /);
      expect(code).toBe(2);
    }
  });

  it('names the port and the fix when the port is taken', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as { port: number };
    try {
      const { code, err } = await cli('world', '--port', String(port));
      expect(err).toContain(
        `--port ${port}: 127.0.0.1:${port} is in use; pick another with --port (0 picks a free one)`,
      );
      expect(code).toBe(2);
    } finally {
      taken.close();
    }
  });
});
