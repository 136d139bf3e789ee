import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { planFor, queue, startWorker, statuses, stopWorker, succeededTransitions, until } from './fleet-helpers.js';
import { inventoryOf, startWorld, stopWorld, worldFiles } from './world-process.js';

/*
 * The game server dies under a fleet and comes back: `verbtree world` (a process of its own, keeping its world in a
 * folder) is SIGKILLed while a real worker process runs plans on a real PostgreSQL journal, and started again on the
 * same folder and port. The test waits for states of the journal, never for a time.
 */

const cluster = usePostgres();

/** The bot's plan with each step's expected duration (its deadline is 3 times that, 5 s at least). */
const planExpecting = (bot: string, index: number, expectedDurationMs: number) => {
  const plan = planFor(bot, index, 1);
  return { ...plan, steps: plan.steps.map((step) => ({ ...step, expectedDurationMs })) };
};

// The two tests have a world, a worker and a database each, and mostly wait (for a plan's deadline, the away limit):
// they run side by side.
describe.concurrent('verbtree worker: the game server dies and comes back', () => {
  it('SIGKILL of verbtree world mid-plan, restarted on its folder and port: the bots rejoin by themselves, report the outage meanwhile, retract the success the crash undid and redo it, and every plan ends verified with each effect made once', async () => {
    const files = await worldFiles('verbtree-rejoin-');
    // Saved at its start and then not for an hour (as a vanilla server saves every 5 minutes): the kill loses every
    // step done since, whatever the machine's speed, so the planks each bot crafted are gone when it comes back.
    const rarely = ['--save-every-ms', '3600000'];
    let server = await startWorld(files, 0, rarely);
    const { port } = server;
    const url = await cluster.database();
    const journal = await openJournal(url);
    // A lease of 10 s (not the fleet tests' 2 s): this test is about the server, and a loaded machine's late
    // renewals would fence a bot for reasons of its own.
    const worker = startWorker(url, port, 'w1', ['ra', 'rb'], 2, '1.21.4', ['--lease-ms', '10000']);
    try {
      const bots = ['ra', 'rb'];
      // Each step may wait a minute: the server's restart and the bots' return fit in its deadline.
      const plans = bots.map((bot, i) => planExpecting(bot, i, 20_000));
      // Both bots on the server before their plans, so both are at the kill: the worker takes its second bot only after
      // its first headroom window, and a bot still joining at the kill has no session to lose (its joins are refused
      // until the server is back, and it was never reported disconnected).
      await until(
        'both bots on the server',
        () => journal.listBots(),
        (listed) => listed.length === bots.length && listed.every((b) => b.status?.connected === true),
      );
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

      server = await startWorld(files, port, rarely);
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
      // The server said it is another process and when it saved: the planks made since were checked, found gone,
      // retracted with that evidence and their keys released, and each running plan stopped and resumed to redo them.
      // (The bot whose walk was under way at the kill had crafted its planks; the other may still have been crafting.)
      expect(log).toMatch(/r[ab]: the server restarted \(the server is another process/);
      expect(log).toMatch(/plan r[ab]-p1 on r[ab]: step planks retracted: .*not in the live world/);
      expect(log).toMatch(/plan r[ab]-p1 on r[ab]: stopped to redo what the server's restart undid/);
      // The worker kept its leases through the outage: no bot was fenced from the kill on (a loaded machine may fence
      // one before, its renewals late, which is the lease's business).
      expect(log.slice(log.indexOf('the server went away')), log).not.toMatch(/fenced r[ab]/);
      let redone = 0;
      for (const plan of plans) {
        // planks succeeded, was retracted and succeeded again when the kill undid it, else once; the rest once each.
        const planks = (await journal.planProvenance(plan.planId))!.steps.find((s) => s.step.step_id === 'planks')!;
        const retracted = planks.transitions.some((t) => t.to_status === 'retracted');
        if (retracted) redone++;
        expect(await succeededTransitions(journal, plan.planId)).toEqual({
          planks: retracted ? 2 : 1,
          out: 1,
          sticks: 1,
          back: 1,
        });
        expect(planks.step.status).toBe('succeeded');
      }
      expect(redone).toBeGreaterThanOrEqual(1);
      await stopWorker(worker);
      // Every success holds in the world, and nothing was done twice: one log made 4 planks, two of them 4 sticks.
      for (const bot of bots) expect(await inventoryOf(port, bot)).toEqual({ oak_log: 1, oak_planks: 2, stick: 4 });
    } catch (error) {
      // A wait that fails says what the worker printed meanwhile: its claims, fences and joins.
      console.log(`worker w1 printed:\n${await worker.out()}`);
      throw error;
    } finally {
      await stopWorker(worker);
      await journal.close();
      await stopWorld(server);
    }
  }, 240_000);

  it('a server that stays away: the plans fail at their deadlines, the bots say since when they are away, and past --away-limit-ms the worker releases them and claims them again once the server answers', async () => {
    const files = await worldFiles('verbtree-away-');
    let server = await startWorld(files, 0);
    const { port } = server;
    const url = await cluster.database();
    const journal = await openJournal(url);
    const limitMs = 15_000;
    const worker = startWorker(url, port, 'w2', ['sa'], 1, '1.21.4', [
      ...['--away-limit-ms', String(limitMs), '--lease-ms', '10000'],
    ]);
    try {
      // Steps of the shortest deadline (5 s): well within the worker's limit.
      const plan = planExpecting('sa', 0, 1_000);
      await queue(journal, 'sa', plan);
      await until(
        'the walk in progress',
        async () => (await journal.planProvenance(plan.planId))?.steps ?? [],
        (steps) => steps.some((s) => s.step.status === 'in_progress' && s.step.step_id === 'out'),
      );
      server.child.kill('SIGKILL');
      await server.ended;
      const [away] = await until(
        'sa reported disconnected',
        () => journal.listBots(),
        ([bot]) => bot?.status?.connected === false,
      );
      expect(away?.status?.state).toMatch(/^disconnected since /);
      expect(away?.status?.position).toBeNull();
      expect(away).toMatchObject({ held: true, holder: 'w2' });

      // The walk waited for its bot until its deadline, then failed explicitly, before the worker's limit.
      await until(
        'the plan ended',
        () => statuses(journal, [plan.planId]),
        ([status]) => status === 'failed' || status === 'succeeded' || status === 'interrupted',
      );
      const provenance = (await journal.planProvenance(plan.planId))!;
      expect(provenance.plan.status).toBe('failed');
      expect(provenance.runs.at(-1)).toMatchObject({ ok: 0, code: 'deadline_exceeded' });
      const out = provenance.steps.find((s) => s.step.step_id === 'out')!;
      expect(out.step.status).toBe('failed');

      // Past the limit the worker says so, and gives the bot up for a worker that can reach the server.
      await until(
        'the worker gave sa up',
        () => worker.out(),
        (log) => log.includes('SERVER UNREACHABLE'),
      );
      await until(
        'sa released',
        () => journal.listBots(),
        ([bot]) => bot?.held === false,
      );
      expect(await worker.out()).toMatch(/the server is unreachable: claiming no bot until it answers/);

      server = await startWorld(files, port);
      await until(
        'sa held again and on the server',
        () => journal.listBots(),
        ([bot]) => bot?.held === true && bot.status?.connected === true,
      );
      expect(await worker.out()).toMatch(/the server answers again after \d+ ms: claiming bots again/);
    } finally {
      await stopWorker(worker);
      await journal.close();
      await stopWorld(server);
    }
  }, 240_000);
});
