import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import { embeddedSuite } from '../helpers/embedded.js';

// Midday; the bot spawns at 0,5,0 with a stone sword, at 5 health and 4 food: too hungry to heal (vanilla heals at 18
// food), nothing to eat. A cow strolls 8 blocks west (its AI on); the step walks 12 blocks east.
const suite = embeddedSuite({
  timeOfDay: 6_000,
  bot: { inventory: { stone_sword: 1 }, health: 5, food: 4 },
  mobs: [{ name: 'cow', x: -8, y: 5, z: 0 }],
});

describe('a hungry bot hunts on the embedded server', () => {
  it('sent on a walk, it kills the cow, picks up its beef and eats: its food rises on the server, and the walk ends verified', async () => {
    const { result, events, deaths } = await suite.run('hunter', [
      { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 12, y: 5, z: 0 } } },
    ]);
    const said = (events as EventOf<'safety.emergency'>[])
      .filter((e) => e.type === 'safety.emergency')
      .map((e) => [e.signal, e.response, e.detail]);
    expect(result.ok, JSON.stringify({ said, steps: result.steps.map((s) => [s.step.type, s.outcome]) })).toBe(true);
    expect(said[0]).toEqual([
      'hunger',
      'attack_entity',
      expect.stringMatching(
        /^hunt: health 5 of 20, too hungry to heal \(food 4 of 20\), nothing to eat, cow \d+ blocks off$/,
      ),
    ]);
    // The kill, then the meal (collect_drops between them finds nothing left when the bot picked the beef up beside
    // the corpse), then the walk.
    const ran = result.steps.map((s) => [s.step.type, s.outcome.ok]).filter(([type]) => type !== 'collect_drops');
    expect(ran, JSON.stringify(result.steps.map((s) => [s.step.type, s.outcome]))).toEqual([
      ['attack_entity', true],
      ['consume_food', true],
      ['navigate', true],
    ]);
    // Each follow-up is told as a response of its own (the bench counts the meal), then the hunger left is said.
    expect(said.slice(1, 3).map(([, response, detail]) => [response, detail])).toEqual([
      ['collect_drops', `${said[0]![2]}; then collect_drops`],
      ['consume_food', `${said[0]![2]}; then consume_food`],
    ]);
    expect(said[3]).toEqual(['hunger', 'none available', expect.stringMatching(/no animal within 24 blocks to hunt$/)]);
    const truth = suite.server.player('hunter')!;
    expect(truth.food).toBeGreaterThanOrEqual(4 + 3);
    expect(await suite.server.livingEntities({ names: ['cow'], within: 64 }, truth.position)).toEqual([]);
    expect(deaths).toEqual([]);
  }, 120_000);
});
