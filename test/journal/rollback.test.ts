import { describe, expect, it } from 'vitest';
import type { Journal } from '../../src/journal/journal.js';
import { recheckAfterRestart, type RecheckScope } from '../../src/journal/rollback.js';
import { provenanceText } from '../../src/cli/commands/show.js';
import { endedResult } from '../../src/mcp/results.js';
import { journalRunView } from '../../src/operations/run-view.js';
import { RunView } from '../../src/api/contract/schemas.js';
import { contractBackends } from './backends.js';
import { DIRT, runAsAnn, worldAfterSave } from './rollback-fixture.js';

/*
 * A server restart that rolled the world back: a plan of bot ann ran to its end on a SimWorld and was journaled, then
 * the world that "came back" is a fresh one where only the first steps were done (what the last save held). The
 * re-check must retract exactly the successes that world no longer holds, and release their idempotency keys.
 */

const statusOf = async (journal: Journal) =>
  Object.fromEntries(((await journal.planProvenance('p'))?.steps ?? []).map((s) => [s.step.step_id, s.step.status]));

const generic = (fence: RecheckScope['fence']): RecheckScope => ({
  bot: 'ann',
  restart: "the world's age went back from 900 to 40 ticks",
  savedUpTo: null,
  windowStart: 0,
  ...(fence ? { fence } : {}),
});

describe.each(contractBackends())('re-checking successes after a server restart, on the %s journal', (_name, fresh) => {
  it('a success whose effect the rollback undid is retracted with its evidence and its key released; the ended plan gets a record', async () => {
    const { journal } = await fresh();
    const fence = await runAsAnn(journal);
    expect((await journal.completedKeys()).sort()).toEqual(['k-dig', 'k-planks', 'k-sticks']);

    const verdicts = await recheckAfterRestart(journal, await worldAfterSave(1), generic(fence));

    expect(verdicts.retracted.map((r) => r.stepId)).toEqual(['sticks', 'dig']);
    expect(verdicts.held).toEqual([{ planId: 'p', stepId: 'planks' }]);
    expect(await statusOf(journal)).toEqual({ planks: 'succeeded', sticks: 'retracted', dig: 'retracted' });
    const sticks = (await journal.planProvenance('p'))!.steps.find((s) => s.step.step_id === 'sticks')!;
    expect(sticks.step).toMatchObject({ outcome_code: 'retracted' });
    expect(sticks.step.outcome_detail).toMatch(
      /the server restarted \(the world's age went back.*not in the live world/,
    );
    // A retry with a released key runs again; the one whose effect holds is still honoured as done.
    expect(await journal.completedKeys()).toEqual(['k-planks']);
    const { incidents } = await journal.listIncidents({});
    expect(incidents.map((i) => [i.failure_mode, i.plan_id])).toEqual([['steps_retracted', 'p']]);
    expect(JSON.parse(incidents[0]!.details!)).toMatchObject({
      planStatus: 'succeeded',
      steps: [{ stepId: 'sticks' }, { stepId: 'dig' }],
    });

    // Every reader says so: show, runs, the API's run view (its schema), MCP's get_run.
    const provenance = (await journal.planProvenance('p'))!;
    expect(provenanceText(provenance)).toMatch(/retracted sticks, dig: a server restart undid them/);
    expect((await journal.listRuns(5)).map((r) => Number(r.steps_retracted))).toEqual([2]);
    const view = journalRunView(provenance);
    expect(RunView.parse(view).steps.map((s) => [s.stepId, s.status, s.code])).toEqual([
      ['planks', 'succeeded', 'ok'],
      ['sticks', 'retracted', 'retracted'],
      ['dig', 'retracted', 'retracted'],
    ]);
    const answer = endedResult(view, []);
    expect(answer.structuredContent).toMatchObject({ retracted: [{ stepId: 'sticks' }, { stepId: 'dig' }] });
    expect(JSON.stringify(answer.content)).toMatch(
      /sticks \(craft_item\) no longer holds: retracted: the server restarted/,
    );
  });

  it('successes that hold are left as they are: nothing retracted, no key released, no record', async () => {
    const { journal } = await fresh();
    const fence = await runAsAnn(journal);
    const verdicts = await recheckAfterRestart(journal, await worldAfterSave(3), generic(fence));
    expect(verdicts.retracted).toEqual([]);
    expect(await statusOf(journal)).toEqual({ planks: 'succeeded', sticks: 'succeeded', dig: 'succeeded' });
    expect((await journal.completedKeys()).sort()).toEqual(['k-dig', 'k-planks', 'k-sticks']);
    expect((await journal.listIncidents({})).total).toBe(0);
  });

  it('the save time known (the embedded world): each success after it is checked on its own; in a plan under way, a later success that holds by chance goes back to pending', async () => {
    const { journal } = await fresh();
    const fence = await runAsAnn(journal);
    await journal.setPlanStatus('p', 'interrupted', fence);
    const planks = (await journal.planProvenance('p'))!.steps.find((s) => s.step.step_id === 'planks')!;
    const planksAt = Number(planks.transitions.find((t) => t.to_status === 'succeeded')!.at);
    // Saved after planks; the dirt is gone anyway (someone else dug it): dig holds, sticks does not.
    const world = await worldAfterSave(1);
    world.setBlock(DIRT, 'air');
    const verdicts = await recheckAfterRestart(journal, world, {
      ...generic(fence),
      restart: 'the server is another process (a, now b)',
      savedUpTo: planksAt,
    });
    expect(verdicts.retracted.map((r) => r.stepId)).toEqual(['sticks']);
    expect(verdicts.retracted[0]!.evidence).toMatch(/after the world was last saved \(\d{4}-/);
    expect(await statusOf(journal)).toEqual({ planks: 'succeeded', sticks: 'retracted', dig: 'pending' });
    expect(await journal.completedKeys()).toEqual(['k-planks']);
    expect((await journal.listIncidents({})).total).toBe(0);
  });
});
