import { expect } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import type { ServerRun } from './embedded.js';

/**
 * What a defence test on the embedded server checks after a walk among zombies the bot should fight: the assessment
 * chose the fight first, saying why (`reason`), and every later round too; the server holds no zombie; the bot never
 * died; the step ended verified. Each failure prints the run's summary, its deaths and the lowest health the server
 * was seen to hold.
 */
export async function expectWonFight(run: ServerRun, lowestHealth: number, reason: RegExp): Promise<void> {
  const { result, events, bot, deaths } = run;
  const emergencies = events.filter((e): e is EventOf<'safety.emergency'> => e.type === 'safety.emergency');
  const summary = JSON.stringify({
    lowest: lowestHealth,
    deaths,
    steps: result.steps.map((s) => [s.step.stepId, s.outcome]),
    emergencies: emergencies.map((e) => [e.response, e.detail]),
  });
  expect(emergencies[0], summary).toMatchObject({ signal: 'hostile', response: 'attack_entity' });
  expect(emergencies[0]!.detail, summary).toMatch(reason);
  expect(
    emergencies.every((e) => e.response === 'attack_entity'),
    summary,
  ).toBe(true);
  expect(deaths, summary).toEqual([]);
  const left = await bot.observe({ entities: { names: ['zombie'], within: 64 } });
  expect(left.entities, summary).toEqual([]);
  expect(result.ok, summary).toBe(true);
}
