import { describe, expect, it } from 'vitest';
import { FAILURE_CODE_LIST } from '../../src/contracts/failure-codes.js';
import type { EventOf } from '../../src/executor/events.js';
import { summaryTable } from '../../src/cli/progress.js';
import { DIG_IN_NIGHT, spawnDigInMobs, walkOff } from '../helpers/dig-in-night.js';
import { harness, plan } from './../helpers/executor.js';

// DIG_IN_NIGHT: a pillar or a wall would leave the bot in the skeleton's sight, so it digs in.
describe('a shelter chosen by what threatens, on SimWorld', () => {
  it('from three zombies and a skeleton the bot digs in, lives, its step goes on or fails explicitly, and counts it as a defence', async () => {
    const h = await harness(DIG_IN_NIGHT);
    spawnDigInMobs(h.world);
    const result = await h.run(plan(walkOff));
    const emergencies = h.events.filter((e): e is EventOf<'safety.emergency'> => e.type === 'safety.emergency');
    const summary = JSON.stringify({
      result: [result.ok, result.code, result.detail],
      emergencies: emergencies.map((e) => [e.response, e.detail]),
      health: h.world.health(),
    });
    expect(emergencies[0], summary).toMatchObject({ signal: 'hostile', response: 'dig_in' });
    expect(emergencies[0]!.detail, summary).toMatch(
      /^shelter dug in under a closed top: .*a skeleton shoots up a pillar/,
    );
    expect(
      h.events.some((e) => e.type === 'step.ended' && e.verb === 'dig_in' && e.outcome.ok),
      summary,
    ).toBe(true);
    expect(result.ok || (result.code !== undefined && FAILURE_CODE_LIST.includes(result.code)), summary).toBe(true);
    expect(h.deaths, summary).toEqual([]);

    // Issue 30 §2: the dig-in is a repair of the walk, a defence, counted once in the plan's totals and its closing
    // line (they said 0 when it showed only as the nested `walk/safety-dig_in`).
    const repairs = h.events.filter((e): e is EventOf<'step.repair'> => e.type === 'step.repair');
    const defences = repairs.filter((e) => e.stepId === 'walk' && e.strategy.startsWith('defence: '));
    expect(defences[0], summary).toMatchObject({
      code: 'preempted',
      strategy: 'defence: dig_in from 3 zombies and a skeleton',
    });
    expect(result.steps.find((s) => s.step.stepId === 'walk')?.defences, summary).toBe(defences.length);
    expect(result, summary).toMatchObject({ repairs: repairs.length, defences: defences.length });
    const counted = `repairs ${repairs.length} (${defences.length} defence${defences.length === 1 ? '' : 's'})`;
    expect(summaryTable(result)).toContain(counted);
  });
});
