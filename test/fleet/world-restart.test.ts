import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import { connectMineflayerWorld } from '../../src/world/mineflayer/index.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { cliProcess, finished } from '../journal/cli-process.js';
import { planFor, queue, startWorker, statuses, stopWorker, succeededTransitions, until } from './fleet-helpers.js';

/*
 * The game server dies under a fleet and comes back: `verbtree world` (a process of its own, keeping its world in a
 * folder) is SIGKILLed while a real worker process runs plans on a real PostgreSQL journal, and started again on the
 * same folder and port. The test waits for states of the journal, never for a time.
 */

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgres();
}, 60_000);
afterAll(() => cluster?.stop());

const SCENARIO = { name: 'fleet', spawn: { x: 0, y: 5, z: 0 }, bot: { inventory: { oak_log: 2 } } };

interface WorldProcess {
  child: ChildProcess;
  ended: ReturnType<typeof finished>;
  port: number;
}

/** `verbtree world` on the folder (and port, 0 for a free one), once it has printed its address. */
async function startWorld(scenario: string, folder: string, port: number): Promise<WorldProcess> {
  const child = cliProcess([
    'world',
    ...['--scenario', scenario, '--world-folder', folder, '--port', String(port), '--json'],
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

/** What the bot holds on the server, as it comes back from the world's save when it logs in. */
async function inventoryOf(port: number, bot: string): Promise<Record<string, number>> {
  const world = await connectMineflayerWorld({ host: '127.0.0.1', port, username: bot });
  try {
    return (await world.observe()).inventory;
  } finally {
    await world.close();
  }
}

/** Every step of a rejoin plan may wait a minute: the server's restart and the bots' return fit in its deadline. */
const patientPlanFor = (bot: string, index: number) => {
  const plan = planFor(bot, index, 1);
  return { ...plan, steps: plan.steps.map((step) => ({ ...step, expectedDurationMs: 20_000 })) };
};

describe('verbtree worker: the game server dies and comes back', () => {
  it('SIGKILL of verbtree world mid-plan, restarted on its folder and port: the bots rejoin by themselves, report the outage meanwhile, and every plan ends verified with each step done once', async () => {
    const dir = await tempDir('verbtree-rejoin-');
    const scenario = join(dir, 'scenario.json');
    writeFileSync(scenario, JSON.stringify(SCENARIO));
    const folder = join(dir, 'world');
    let server = await startWorld(scenario, folder, 0);
    const { port } = server;
    const url = await cluster.database();
    const journal = await openJournal(url);
    const worker = startWorker(url, port, 'w1', ['ra', 'rb'], 2);
    try {
      const bots = ['ra', 'rb'];
      const plans = bots.map((bot, i) => patientPlanFor(bot, i));
      for (const [i, bot] of bots.entries()) await queue(journal, bot, plans[i]!);
      await until(
        'a walk in progress',
        async () =>
          (await Promise.all(plans.map((p) => journal.planProvenance(p.planId)))).flatMap((p) => p?.steps ?? []),
        (steps) => steps.some((s) => s.step.status === 'in_progress' && s.step.step_id === 'out'),
      );
      server.child.kill('SIGKILL');
      expect((await server.ended).signal).toBe('SIGKILL');

      // While the server is away, each bot's report says so, since when, and nothing of where it stood.
      const away = await until(
        'both bots reported disconnected',
        () => journal.listBots(),
        (listed) => listed.every((b) => b.status?.connected === false),
      );
      for (const bot of away) {
        expect(bot).toMatchObject({ held: true, holder: 'w1' });
        expect(bot.status?.state).toMatch(/^disconnected since \d{4}-\d\d-\d\dT/);
        expect(bot.status?.position).toBeNull();
      }
      // Nothing has failed meanwhile: the steps wait for their bots.
      expect(
        await statuses(
          journal,
          plans.map((p) => p.planId),
        ),
      ).not.toContain('failed');

      server = await startWorld(scenario, folder, port);
      const returned = Date.now();
      await until(
        'both bots back on the server',
        () => journal.listBots(),
        (listed) => listed.every((b) => b.status?.connected === true),
      );
      console.log(`bots back on the server ${Date.now() - returned} ms after it printed its address`);
      await until(
        'every plan ended',
        () =>
          statuses(
            journal,
            plans.map((p) => p.planId),
          ),
        (s) => s.every((status) => status === 'succeeded' || status === 'failed'),
      );
      const log = await worker.out();
      expect(
        await statuses(
          journal,
          plans.map((p) => p.planId),
        ),
        log,
      ).toEqual(['succeeded', 'succeeded']);
      expect(log).toMatch(/ra: the server went away/);
      expect(log).toMatch(/ra: back on the server after \d+ ms away/);
      // The worker kept its leases through the outage: no bot was fenced from the kill on (a loaded machine may fence
      // one before, its renewals late, which is the lease's business).
      expect(log.slice(log.indexOf('the server went away')), log).not.toMatch(/fenced r[ab]/);
      for (const plan of plans)
        expect(await succeededTransitions(journal, plan.planId)).toEqual({ planks: 1, out: 1, sticks: 1, back: 1 });
      await stopWorker(worker);
      // Every success holds in the world, and nothing was done twice: one log made 4 planks, two of them 4 sticks.
      for (const bot of bots) expect(await inventoryOf(port, bot)).toEqual({ oak_log: 1, oak_planks: 2, stick: 4 });
    } finally {
      await stopWorker(worker);
      await journal.close();
      server.child.kill('SIGTERM');
      await server.ended;
    }
  }, 240_000);
});
