import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import { type EmbeddedSuite, embeddedSuite } from '../helpers/embedded.js';
import { watchLowestHealth } from '../helpers/health-watch.js';

// Midnight, no daylight cycle; the bot spawns at 0,5,0 at full health and walks to 14,5,0 while a creeper stands on
// the way at 9,5,0, its AI on (src/world/mob-rules/): it walks up to the bot and lights its 1.5 s fuse within 3
// blocks. A blast at point-blank takes 43 (blastDamage(3, 0, 1)): a bot that took one would be dead.
const creeperOnTheWay = (weapon: string) =>
  embeddedSuite({
    timeOfDay: 18_000,
    bot: { inventory: { [weapon]: 1 } },
    mobs: [{ name: 'creeper', x: 9, y: 5, z: 0 }],
  });

async function walkPastTheCreeper(suite: EmbeddedSuite, username: string) {
  const health = watchLowestHealth(() => suite.server, username);
  try {
    const { result, events, bot, deaths } = await suite.run(username, [
      { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 14, y: 5, z: 0 } } },
    ]);
    const emergencies = events.filter((e): e is EventOf<'safety.emergency'> => e.type === 'safety.emergency');
    const creepers = (await bot.observe({ entities: { names: ['creeper'], within: 64 } })).entities ?? [];
    const summary = JSON.stringify({
      lowest: health.lowest(),
      deaths,
      steps: result.steps.map((s) => [s.step.stepId, s.outcome]),
      emergencies: emergencies.map((e) => [e.response, e.detail]),
      creepers,
    });
    return { result, emergencies, creepers, deaths, lowest: health.lowest(), summary };
  } finally {
    health.stop();
  }
}

const diamond = creeperOnTheWay('diamond_sword');

describe('a creeper walking up to a bot with a diamond sword, on the embedded server', () => {
  it('the bot strikes it first (3 hits within its fuse), kills it as the server holds it, lives, and walks on', async () => {
    const run = await walkPastTheCreeper(diamond, 'striker');
    expect(run.emergencies[0], run.summary).toMatchObject({ signal: 'hostile', response: 'attack_entity' });
    expect(run.emergencies[0]!.detail, run.summary).toMatch(/^fight: a creeper, diamond_sword 7 per hit/);
    expect(run.creepers, run.summary).toEqual([]);
    expect(run.deaths, run.summary).toEqual([]);
    expect(run.result.ok, run.summary).toBe(true);
  }, 180_000);
});

const stone = creeperOnTheWay('stone_sword');

describe('a creeper walking up to a bot with a stone sword, on the embedded server', () => {
  it('the bot strikes it sprinting each time its fuse lights (4 hits outlast one fuse, but each knock-back puts it out), kills it, is never blasted, and walks on', async () => {
    const run = await walkPastTheCreeper(stone, 'dodger');
    expect(run.emergencies[0], run.summary).toMatchObject({ signal: 'hostile', response: 'attack_entity' });
    expect(run.emergencies[0]!.detail, run.summary).toMatch(/^fight: a creeper, stone_sword 5 per hit/);
    expect(run.creepers, run.summary).toEqual([]);
    // A creeper does nothing but blow up: any damage would be its blast (and a bot it killed respawns at 20).
    expect(run.deaths, run.summary).toEqual([]);
    expect(run.lowest, run.summary).toBe(20);
    expect(run.result.ok, run.summary).toBe(true);
  }, 180_000);
});
