import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

const suite = embeddedSuite({});

describe('follow_entity on the embedded server', () => {
  it('keeps within range of another player who walks away, and ends beside it', async () => {
    const leader = await suite.world.connectBot('leader');
    let started: () => void = () => {};
    const followingStarted = new Promise<void>((resolve) => (started = resolve));
    const following = suite.run(
      'follower',
      [{ stepId: 'follow', type: 'follow_entity', args: { target: { name: 'player' }, range: 3, forMs: 12_000 } }],
      {
        onEvent: (event) => {
          if (event.type === 'step.firstAction') started();
        },
      },
    );
    // The leader walks 10 blocks east once the follower has begun to follow (its first action: facing the leader).
    await Promise.race([followingStarted, following]);
    await leader.goto({ kind: 'block', x: 10, y: 5, z: 0 });
    const { result } = await following;
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    const [at, led] = [suite.server.player('follower')!.position, suite.server.player('leader')!.position];
    expect(Math.hypot(at.x - led.x, at.z - led.z)).toBeLessThanOrEqual(4);
    expect(at.x).toBeGreaterThan(5);
  }, 60_000);
});
