import { describe, expect, it } from 'vitest';
import { harness, plan } from '../helpers/executor.js';

/*
 * Issue 30: world 1 of a night's tech-tree run. "close in on the skeleton" with the skeleton on a ledge 2 blocks up:
 * its approach failed `no_path` and was retried twice under fire; the fight broke off at 4 health and the flight after
 * it was a death; after respawning the bot closed in on the same skeleton again. A player who cannot get to an archer
 * gets out of its sight at once.
 */

describe('a close-in that cannot reach its archer ends at once, and the bot gets out of its sight', () => {
  it('a skeleton on a stone platform 3 blocks up: one close-in, not retried, then a flight saying why, never a second close-in', async () => {
    const h = await harness({ ground: { radius: 40 }, inventory: { wooden_sword: 1 }, heldItem: 'wooden_sword' });
    h.world.fill({ x: 8, y: 0, z: -1 }, { x: 10, y: 2, z: 1 }, 'stone');
    h.world.spawnEntity({ name: 'skeleton', kind: 'hostile', position: { x: 9.5, y: 3, z: 0.5 } });
    await h.run(
      plan({ stepId: 'walk', type: 'navigate', args: { target: { kind: 'near', x: 0, y: 0, z: 20, range: 1 } } }),
    );
    const closeIns = h.events.filter((e) => e.type === 'step.ended' && e.verb === 'attack_entity');
    expect(closeIns).toHaveLength(1);
    expect(closeIns[0]).toMatchObject({
      attempts: 1,
      outcome: {
        ok: false,
        code: 'precondition_missing',
        detail: expect.stringContaining('skeleton cannot be reached') as unknown,
      },
    });
    const answers = h.events.filter((e) => e.type === 'safety.emergency');
    expect(answers[0]).toMatchObject({ response: 'attack_entity' });
    // Judged again with the skeleton out of reach: out of its sight, at full health, the reason naming it.
    expect(answers[1]).toMatchObject({
      response: 'flee',
      detail: expect.stringContaining('the skeleton cannot be reached') as unknown,
    });
    expect(h.deaths).toEqual([]);
    expect(h.world.health()).toBeGreaterThan(10);
  });
});
