import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import { embeddedSuite } from '../helpers/embedded.js';

// Night without a daylight cycle (a skeleton does not burn); one skeleton 12 blocks east of the spawn, in the open,
// with the mob rules driving it: it sees the bot and shoots along its line of sight (src/world/mob-rules). The bot
// holds a stone sword: bare hands, 20 hits under its arrows, make a flight, not a fight.
const suite = embeddedSuite({
  timeOfDay: 18_000,
  bot: { inventory: { stone_sword: 1 } },
  mobs: [{ name: 'skeleton', x: 12, y: 5, z: 0 }],
});

describe('a skeleton in bow range on the embedded server', () => {
  it('is a threat the safety monitor answers, though it stands far beyond melee reach: the bot closes in on it and lives', async () => {
    const { events, result, bot, deaths } = await suite.run('archer-target', [
      { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 0, y: 5, z: -14 } } },
    ]);
    const emergency = events.find((e): e is EventOf<'safety.emergency'> => e.type === 'safety.emergency');
    expect(emergency, JSON.stringify(events.filter((e) => e.type.startsWith('step.')).slice(0, 8))).toMatchObject({
      signal: 'hostile',
      response: 'attack_entity',
    });
    // The step was taken over for the skeleton in sight; the assessment chose to charge it (a sword, full health).
    const preempted = events.find((e): e is EventOf<'step.preempted'> => e.type === 'step.preempted');
    expect(preempted!.reason).toMatch(/^skeleton [\d.]+ blocks away, in its bow's range \(15\) with a line of sight; /);
    expect(emergency!.detail).toMatch(
      /^close in on the skeleton: a skeleton, stone_sword 5 per hit, expected [\d.]+ damage/,
    );
    const summary = JSON.stringify({ steps: result.steps.map((s) => [s.step.stepId, s.outcome]), deaths });
    // It killed the skeleton (the server holds it dead) and never died; the walk then ended verified.
    const left = await bot.observe({ entities: { names: ['skeleton'], within: 64 } });
    expect(left.entities, summary).toEqual([]);
    expect(deaths, summary).toEqual([]);
    expect(result.ok, summary).toBe(true);
  }, 120_000);
});
