import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

// No mobs on the embedded server: the danger is given as a position.
const suite = embeddedSuite({});

const flee = (args: Record<string, unknown>) => ({ stepId: 'flee', type: 'flee', args });

describe('flee on the embedded server', () => {
  it('runs the given distance away from a position, verified by where the server holds the bot', async () => {
    const { result } = await suite.run('runner', [flee({ from: { x: -2, y: 5, z: 0 }, distance: 10 })]);
    expect(result.steps[0]!.outcome).toEqual({ ok: true });
    const { x, z } = suite.server.player('runner')!.position;
    expect(Math.hypot(x - -1.5, z - 0.5)).toBeGreaterThanOrEqual(9);
    expect(x).toBeGreaterThan(0.5);
  });
});

// At night a zombie 6 blocks east sees the bot and comes for it (src/world/mob-rules/: 2.3 blocks a second, half a
// walking player's speed).
describe('flee from a zombie that gives chase, on the embedded server', () => {
  const chased = embeddedSuite({ timeOfDay: 18_000, mobs: [{ name: 'zombie', x: 6, y: 5, z: 0 }] });

  it('outruns it: ends 16 blocks from where the chase began, the zombie left behind, the bot alive', async () => {
    const { result, bot, deaths } = await chased.run('quarry', [flee({ distance: 16 })]);
    expect(result.steps[0]!.outcome).toEqual({ ok: true });
    const { position } = chased.server.player('quarry')!;
    const [zombie] = (await bot.observe({ entities: { names: ['zombie'], within: 64 } })).entities!;
    // It followed, and fell behind.
    expect(zombie!.position.x).toBeLessThan(6);
    expect(Math.hypot(zombie!.position.x - position.x, zombie!.position.z - position.z)).toBeGreaterThan(8);
    expect(deaths, JSON.stringify(deaths)).toEqual([]);
  });
});
