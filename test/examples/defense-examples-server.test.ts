import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FAILURE_CODE_LIST } from '../../src/contracts/failure-codes.js';
import { type EmbeddedSuite, embeddedSuite, type PlanStepInput } from '../helpers/embedded.js';
import { watchLowestHealth } from '../helpers/health-watch.js';

// The seed's "hostile swarm" and "nightfall" as shipped (examples/scenarios/<name>.json, examples/<name>.plan.json),
// each run once on the embedded server with the mobs' AI on: the plan ends verified, or fails explicitly with a
// failure code, and the bot never dies (its deaths, as the server sent its health, are none; the lowest health the
// server was seen to hold is in the summary).
const json = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const shipped = (name: string) => ({
  suite: embeddedSuite(json(`examples/scenarios/${name}.json`) as Parameters<typeof embeddedSuite>[0]),
  steps: (json(`examples/${name}.plan.json`) as { steps: PlanStepInput[] }).steps,
});
const swarm = shipped('hostile-swarm');
const nightfall = shipped('nightfall');

async function runShipped(suite: EmbeddedSuite, steps: PlanStepInput[], username: string) {
  const health = watchLowestHealth(() => suite.server, username);
  try {
    const { result, events, deaths } = await suite.run(username, steps);
    const summary = JSON.stringify({
      result: [result.ok, result.code, result.detail],
      lowest: health.lowest(),
      deaths,
      steps: result.steps.map((s) => [s.step.stepId, s.step.type, s.outcome.ok ? 'ok' : s.outcome.code]),
      emergencies: events.filter((e) => e.type === 'safety.emergency').map((e) => [e.response, e.detail]),
    });
    expect(result.ok || (result.code !== undefined && FAILURE_CODE_LIST.includes(result.code)), summary).toBe(true);
    expect(deaths, summary).toEqual([]);
    return { result, events, summary };
  } finally {
    health.stop();
  }
}

describe('the shipped defence examples on the embedded server', () => {
  it('hostile-swarm: wood under attack ends verified or fails explicitly, the bot alive, having answered the mobs', async () => {
    const { events, summary } = await runShipped(swarm.suite, swarm.steps, 'swarmed');
    expect(
      events.some((e) => e.type === 'safety.emergency'),
      summary,
    ).toBe(true);
  }, 240_000);

  it('nightfall: food, a shovel and a hole before the night end verified or fail explicitly, the bot alive', async () => {
    await runShipped(nightfall.suite, nightfall.steps, 'dusk');
  }, 240_000);
});
