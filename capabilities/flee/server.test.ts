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
