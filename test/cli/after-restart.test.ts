import { describe, expect, it } from 'vitest';
import { recheckingOnReturn } from '../../src/cli/after-restart.js';
import { systemClock } from '../../src/clock/index.js';
import type { Clock } from '../../src/contracts/clock.js';
import { openTemp } from '../journal/helpers.js';
import { runAsAnn, worldAfterSave } from '../journal/rollback-fixture.js';

/*
 * The re-check `serve` and `mcp` run when a bot of theirs is back on a server that restarted (the worker's, shared):
 * it retracts what the world no longer holds, and sends this process's run of a plan with a step found gone back to redo
 * it, naming the step (the run resumed in process: src/cli/resumable-run.ts).
 */

const RESTART = { evidence: 'the server is another process (a, now b)', savedUpTo: null };

function hook(journal: Parameters<typeof recheckingOnReturn>[1]['journal'], clock: Clock = systemClock) {
  const said: string[] = [];
  const redone: string[] = [];
  const run = { redo: (why: string) => (redone.push(why), true) };
  const { returning } = recheckingOnReturn('ann', {
    journal,
    clock,
    say: (line) => said.push(line),
    runs: { running: new Map([['p', run]]) },
  });
  return { returning, said, redone };
}

describe('serve and mcp re-check a bot’s successes when its server comes back restarted', () => {
  it('a restart: the steps the world lost are retracted, said, and the run of their plan under way is sent back to redo them', async () => {
    // On the system clock (monotonic) and a journal on epoch ms, as in use: the window since the bot joined is
    // turned into the journal's times.
    const { journal } = openTemp();
    // The bot joined, then ran the plan: its successes are in the window since it connected.
    const { returning, said, redone } = hook(journal);
    await runAsAnn(journal);

    await returning(await worldAfterSave(1), RESTART);

    const statuses = (await journal.planProvenance('p'))!.steps.map((s) => [s.step.step_id, s.step.status]);
    expect(statuses).toEqual([
      ['planks', 'succeeded'],
      ['sticks', 'retracted'],
      ['dig', 'retracted'],
    ]);
    expect(said.join('\n')).toMatch(/plan p on ann: step sticks retracted: the server restarted/);
    expect(redone).toHaveLength(2);
    expect(redone[0]).toMatch(/^step sticks was retracted: the server restarted/);
  });

  it('a success from before the bot last connected is outside the window: not checked, not retracted', async () => {
    const { journal } = openTemp();
    await runAsAnn(journal);
    const { returning, said, redone } = hook(journal);

    await returning(await worldAfterSave(1), RESTART);

    expect(said.at(-1)).toBe('ann: 0 retracted, 0 held after the restart');
    expect((await journal.planProvenance('p'))!.steps.every((s) => s.step.status === 'succeeded')).toBe(true);
    expect(redone).toEqual([]);
  });

  it('a rejoin without a restart checks nothing and cancels nothing', async () => {
    const { journal } = openTemp();
    const { returning, said, redone } = hook(journal);
    await runAsAnn(journal);

    await returning(await worldAfterSave(0), null);

    expect((await journal.planProvenance('p'))!.steps.every((s) => s.step.status === 'succeeded')).toBe(true);
    expect(said).toEqual([]);
    expect(redone).toEqual([]);
  });
});
