import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import {
  planFor,
  queue,
  statuses,
  stopWorker,
  succeededTransitions,
  until,
  type Worker,
  useFleetWorld,
} from './fleet-helpers.js';

/*
 * Real worker processes (the CLI under tsx) on a real PostgreSQL cluster and the embedded server in a child process,
 * both this file's own. Leases are short (--lease-ms), and the tests wait for states of the journal, never for a time.
 */

const world = useFleetWorld();

describe('verbtree worker: takeover after a crash', () => {
  it('takeover: a worker SIGKILLed mid-step loses its bots to the other, whose resume ends every plan verified with each step succeeded once and no item doubled', async () => {
    const url = await world.cluster.database();
    const journal = await openJournal(url);
    const workers: Worker[] = [];
    try {
      const bots = ['ta', 'tb', 'tc', 'td'];
      const plans = bots.map((bot, i) => planFor(bot, i, 1));
      for (const [i, bot] of bots.entries()) await queue(journal, bot, plans[i]!);
      const victim = world.startWorker(url, 'victim', ['ta', 'tb'], 2);
      workers.push(victim);
      // The victim holds its bots and has a step of one under way; only then does the survivor start.
      const busy = await until(
        'a step in progress on a bot of the victim',
        async () => {
          const held = (await journal.listBots()).filter((b) => b.holder === 'victim' && b.held && b.plan);
          for (const bot of held) {
            const steps = (await journal.planProvenance(bot.plan!))?.steps ?? [];
            const running = steps.find((s) => s.step.status === 'in_progress' && s.step.step_id !== 'planks');
            if (running) return { bot: bot.name, step: running.step.step_id };
          }
          return null;
        },
        (found) => found !== null,
      );
      expect(busy).not.toBeNull();
      const survivor = world.startWorker(url, 'survivor', ['tc', 'td'], 4);
      workers.push(survivor);
      victim.child.kill('SIGKILL');
      expect((await victim.ended).signal).toBe('SIGKILL');

      await until(
        'every plan ended',
        () =>
          statuses(
            journal,
            plans.map((p) => p.planId),
          ),
        (s) => s.every((status) => status === 'succeeded' || status === 'failed'),
      );
      expect(
        await statuses(
          journal,
          plans.map((p) => p.planId),
        ),
      ).toEqual(plans.map(() => 'succeeded'));
      const fleet = await journal.listBots();
      expect(fleet.map((b) => [b.name, b.holder])).toEqual(bots.map((b) => [b, 'survivor']));
      // The survivor tells the journal what each bot does, under its own epoch (what a gateway's GET /api/bots lists).
      const reported = await until(
        "the survivor's reports of every bot",
        () => journal.listBots(),
        (listed) => listed.every((b) => b.status?.connected === true),
      );
      for (const bot of reported) {
        expect(bot.status).toMatchObject({ kind: 'mineflayer', health: 20 });
        // The state is as of the last renewal, which may precede the plan's end: any agent state, but one.
        expect(bot.status?.state).toMatch(/^[A-Z]+$/);
        expect(bot.status?.position).not.toBeNull();
      }
      for (const plan of plans)
        expect(await succeededTransitions(journal, plan.planId)).toEqual({ planks: 1, out: 1, sticks: 1, back: 1 });
      // A plan the victim had begun was resumed, not started over: its last run is the survivor's, resumed. The bot
      // busy at the kill had begun its plan; the other may not have on a loaded machine (the survivor then ran it).
      for (const bot of ['ta', 'tb']) {
        const runs = (await journal.planProvenance(`${bot}-p1`))!.runs;
        const begun = runs.some((r) => r.runner_id === 'victim');
        if (bot === busy?.bot) expect(begun, JSON.stringify(runs)).toBe(true);
        expect(runs.at(-1), JSON.stringify(runs)).toMatchObject({
          runner_id: 'survivor',
          ok: 1,
          ...(begun ? { resumed: 1 } : {}),
        });
      }
      // Two logs, one crafted into 4 planks, two planks into 4 sticks: once each, on every bot.
      for (const bot of bots)
        expect(world.server.player(bot)?.inventory).toEqual({ oak_log: 1, oak_planks: 2, stick: 4 });
    } finally {
      for (const worker of workers) await stopWorker(worker);
      await journal.close();
    }
  }, 180_000);
});
