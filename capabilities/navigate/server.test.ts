import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

const suite = embeddedSuite({});

const navigate = (stepId: string, target: Record<string, unknown>) => ({ stepId, type: 'navigate', args: { target } });

describe('navigate on the embedded server', () => {
  it('walks to a block, verified by the position the server holds', async () => {
    const { result, events } = await suite.run('walker', [navigate('walk', { kind: 'block', x: 4, y: 5, z: -3 })]);
    expect(result.steps[0]!.outcome).toEqual({ ok: true });
    const { x, y, z } = suite.server.player('walker')!.position;
    expect([Math.floor(x), Math.floor(y), Math.floor(z)]).toEqual([4, 5, -3]);
    expect(events.find((e) => e.type === 'step.firstAction')).toMatchObject({ command: 'goto' });
  });

  it('walks into a column (xz goal)', async () => {
    const { result } = await suite.run('columnist', [navigate('column', { kind: 'xz', x: -6, z: 5, range: 1 })]);
    expect(result.ok).toBe(true);
    const { x, z } = suite.server.player('columnist')!.position;
    expect(Math.hypot(Math.floor(x) - -6, Math.floor(z) - 5)).toBeLessThanOrEqual(1);
  });

  it('a bot kicked mid-walk ends the step explicitly with world_disconnected', async () => {
    const { result, bot } = await suite.run('kicked', [navigate('far', { kind: 'xz', x: 30, z: 0 })], {
      onEvent: (event) => {
        if (event.type === 'step.firstAction') suite.server.kick('kicked', 'test kick mid-walk');
      },
    });
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'world_disconnected' });
    expect(bot.isConnected()).toBe(false);
    expect(suite.server.player('kicked')).toBeNull();
  });
});
