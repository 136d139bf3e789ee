import { describe, expect, it } from 'vitest';
import type { Journal } from '../../src/journal/journal.js';
import { HealthConfig } from '../../src/journal/health-config.js';
import type { BotReport } from '../../src/journal/rows.js';
import { contractBackends } from './backends.js';
import { stepFields } from './helpers.js';

const MINUTE = 60_000;
const plan = (planId: string) => ({ planId, intentId: 'i', steps: [{ stepId: 's', type: 'navigate' }] });
const config = HealthConfig.parse({});
const sweep = (journal: Journal) => journal.healthSweep({ config, isAlive: () => true, dryRun: false });
const report = (bot: string, epoch: number, state: string): BotReport => ({
  bot,
  epoch,
  connected: true,
  state,
  kind: 'sim',
  position: { x: 1, y: 64, z: -2 },
  health: 20,
  food: 18,
});
const warning = (planId: string, message: string) => ({
  event: { type: 'step.warning' as const, at: 0, planId, stepId: 's', verb: 'navigate', message },
  runnerId: null,
});

/** What a gateway reads of the fleet that a worker wrote: its reports, its events, and the health sweep's view. */
describe.each(contractBackends())('what a gateway reads of the fleet, on the %s journal', (_backend, fresh) => {
  it("shows a bot's report only under its current lease; a report from an older lease never replaces a newer one", async () => {
    const { journal, another } = await fresh();
    const old = await another();
    await journal.addBot({ name: 'ann' });
    expect(await old.claimBot('ann', 'w1', 0)).toBe(1);
    expect(await old.reportBots([report('ann', 1, 'EXECUTING')])).toBe(1);
    expect((await journal.listBots())[0]!.status).toMatchObject({
      connected: true,
      state: 'EXECUTING',
      kind: 'sim',
      position: { x: 1, y: 64, z: -2 },
      health: 20,
      food: 18,
    });
    // w2 takes the lapsed lease: w1's report no longer speaks for the bot.
    expect(await journal.claimBot('ann', 'w2', MINUTE)).toBe(2);
    expect((await journal.listBots())[0]!.status).toBeNull();
    expect(await journal.reportBots([report('ann', 2, 'IDLE')])).toBe(1);
    expect(await old.reportBots([report('ann', 1, 'EXECUTING')])).toBe(0);
    expect((await journal.listBots())[0]).toMatchObject({ holder: 'w2', epoch: 2, status: { state: 'IDLE' } });
  });

  it("names each event's fleet bot, and the feed's end cursor passes everything committed", async () => {
    const { journal } = await fresh();
    await journal.addBot({ name: 'ann' });
    const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', MINUTE))! };
    expect(await journal.eventFeedEnd()).toBeNull();
    await journal.enqueuePlan({ ...plan('fleet'), bot: 'ann', body: plan('fleet') });
    expect(await journal.claimNextPlan(fence)).toMatchObject({ planId: 'fleet' });
    await journal.beginRun({ ...plan('fleet'), body: plan('fleet'), runnerId: null }, fence);
    await journal.recordEvent(warning('fleet', 'one'), fence);
    await journal.beginRun({ ...plan('direct'), body: plan('direct'), runnerId: null });
    await journal.recordEvent(warning('direct', 'two'));
    const all = await journal.eventFeed(null, 10);
    expect(all.rows.map((r) => [r.planId, r.bot])).toEqual([
      ['fleet', 'ann'],
      ['direct', null],
    ]);
    const end = await journal.eventFeedEnd();
    expect(end).toBe(all.cursor);
    await journal.recordEvent(warning('fleet', 'three'), fence);
    const next = await journal.eventFeed(end, 10);
    expect(next.rows.map((r) => (r.event as { message: string }).message)).toEqual(['three']);
  });

  it("finds a lapsed lease and its silent worker, leaves the bot's step to its next holder, and settles once it is held again", async () => {
    const { journal, another } = await fresh();
    const gone = await another();
    await journal.addBot({ name: 'ann' });
    const fence = { bot: 'ann', epoch: (await gone.claimBot('ann', 'w-gone', MINUTE))! };
    await gone.enqueuePlan({ ...plan('p'), bot: 'ann', body: plan('p') });
    await gone.claimNextPlan(fence);
    await gone.beginRun({ ...plan('p'), body: plan('p'), runnerId: null }, fence);
    expect(await gone.transition('p', 's', 'in_progress', 'dispatched', fence)).toBe(true);
    // Held: its step is its holder's, and nothing is found.
    expect((await sweep(journal)).findings).toEqual([]);
    // The worker stops renewing: its lease lapses (renewed to no time, by the database's clock).
    await gone.renewLeases('w-gone', 0);
    const found = await sweep(journal);
    expect(found.findings.map((f) => [f.mode, f.summary])).toEqual([
      ['orphaned_step', 'p/s (navigate) in progress on bot ann, which no worker holds'],
      [
        'expired_lease',
        expect.stringMatching(/^bot ann's lease \(worker w-gone, epoch 1\) lapsed \d+s ago: plan p unfinished$/),
      ],
      ['dead_worker', expect.stringMatching(/^worker w-gone renews no lease: its leases on ann lapsed/)],
    ]);
    // Nothing is moved: the next holder resumes the plan and checks the step against the world.
    expect(await stepFields(journal, 'p', 'status')).toEqual([{ status: 'in_progress' }]);
    expect((await sweep(journal)).findings).toEqual([]);

    const next = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w2', MINUTE))! };
    expect(await journal.claimNextPlan(next)).toMatchObject({ planId: 'p', resume: true });
    expect(await journal.transition('p', 's', 'succeeded', 'verified', next)).toBe(true);
    await sweep(journal);
    const open = await journal.listIncidents({ unresolved: true });
    expect(open.incidents).toEqual([]);
    expect((await journal.listIncidents()).total).toBe(3);
  });
});
