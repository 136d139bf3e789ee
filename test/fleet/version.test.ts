import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import { cliProcess, finished } from '../journal/cli-process.js';
import { stopWorker, until, useFleetWorld } from './fleet-helpers.js';

/*
 * Real worker processes (the CLI under tsx) on a real PostgreSQL cluster and the embedded server in a child process,
 * both this file's own. Leases are short (--lease-ms), and the tests wait for states of the journal, never for a time.
 */

const world = useFleetWorld();

describe("verbtree worker: the server's version", () => {
  it('asks the server its version: auto finds 1.21.4, and a version the server does not speak is refused naming both', async () => {
    const url = await world.cluster.database();
    const wrong = cliProcess(
      ['worker', '--journal', url, '--host', '127.0.0.1', '--port', String(world.server.port)].concat([
        '--version',
        '1.20.1',
        '--bot',
        'va',
      ]),
    );
    const refused = await finished(wrong);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      `the server at 127.0.0.1:${world.server.port} speaks Minecraft 1.21.4, not 1.20.1 (--version)`,
    );
    const auto = world.startWorker(url, 'auto', ['vb'], 1, 'auto');
    try {
      const journal = await openJournal(url);
      await until(
        'vb held',
        () => journal.listBots(),
        (bots) => bots.some((b) => b.name === 'vb' && b.held),
      );
      await journal.close();
    } finally {
      await stopWorker(auto);
    }
    const ended = await auto.ended;
    expect(ended.code).toBe(0);
    expect(ended.out).toContain('(Minecraft 1.21.4, offline)');
    expect(ended.out).toContain('fenced vb (epoch 1, released): interrupted');
    expect(ended.out).toContain('gave up vb (epoch 1)');
  }, 60_000);
});
