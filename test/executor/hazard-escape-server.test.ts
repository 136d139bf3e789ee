import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src/executor/events.js';
import { embeddedSuite } from '../helpers/embedded.js';

// The bot spawns in a 3-wide lava river, beside its west bank (examples/scenarios/lava-escape.json).
const suite = embeddedSuite(
  JSON.parse(readFileSync('examples/scenarios/lava-escape.json', 'utf8')) as Parameters<typeof embeddedSuite>[0],
);

describe('the hazard fast path on the embedded server', () => {
  it('a bot in lava is burned by the server, gets out by the safety fast path, and then its walk reaches the far bank', async () => {
    const { result, events, bot, deaths } = await suite.run('swimmer', [
      { stepId: 'cross', type: 'navigate', args: { target: { kind: 'block', x: 10, y: 5, z: 0 } } },
    ]);
    const emergency = events.find((e): e is EventOf<'safety.emergency'> => e.type === 'safety.emergency');
    expect(emergency).toMatchObject({ signal: 'hazard', detail: 'in lava at 4,4,0', response: 'navigate' });
    expect(result.steps[0]!.outcome).toEqual({ ok: true });
    const server = suite.server.player('swimmer')!;
    expect([Math.floor(server.position.x), Math.floor(server.position.y), Math.floor(server.position.z)]).toEqual([
      10, 5, 0,
    ]);
    // The lava burned (the server's hazard plugin), but the bot got out and never died on the way.
    expect(deaths, JSON.stringify(deaths)).toEqual([]);
    expect(server.health).toBeLessThan(20);
    expect(events.some((e) => e.type === 'step.ended' && !e.outcome.ok && e.stepId.includes('safety'))).toBe(false);
    expect(bot.blockAt(bot.position())?.name).not.toBe('lava');
  });
});
