import { describe, expect, it } from 'vitest';
import { WorldError } from '../../src/contracts/world.js';
import { harness, plan } from '../helpers/executor.js';
import { match } from '../helpers/matchers.js';

/**
 * A close-in whose walk ends short of its goal: SimWorld's walk runs, then fails `no_path` as mineflayer's navigate does
 * when pathfinder reports arrival a few tenths off its goal (`walks`: whether the walk moves the bot at all first).
 */
async function closeInFailing(walks: boolean) {
  const h = await harness({ inventory: { wooden_sword: 1 }, heldItem: 'wooden_sword' });
  const cow = h.world.spawnEntity({ name: 'cow', kind: 'passive', position: { x: 10.5, y: 0, z: 0.5 } });
  const goto = h.world.goto.bind(h.world);
  let failed = 0;
  h.world.goto = async (goal, options) => {
    if (failed > 0) return goto(goal, options);
    failed++;
    if (walks) await goto(goal, options);
    throw new WorldError(
      'no_path',
      'cannot reach the goal: pathfinder reported arrival but the bot stands 0.4 blocks short',
    );
  };
  const result = await h.run(
    plan({ stepId: 'fight', type: 'attack_entity', args: { target: { id: cow }, giveUpUnreachable: true } }),
  );
  return { h, cow, result };
}

// Server tech-tree world 4 (2026-12-07): a close-in on a skeleton stopped 0.4 blocks short of its goal; the fight took
// it for an archer out of reach ("the skeleton cannot be reached"), and the bot fled under its arrows, 17 to 5 health.
describe('a close-in that ends short of its goal', () => {
  it('goes on with the fight when the walk brought the mob within the swing: the mob is killed and the step ends ok', async () => {
    const { h, cow, result } = await closeInFailing(true);
    expect(result.steps[0]?.outcome).toEqual({ ok: true });
    expect(h.world.entities().map((e) => e.id)).not.toContain(cow);
  });

  it('still ends at once when the walk got nowhere near it: the mob cannot be reached', async () => {
    const { result } = await closeInFailing(false);
    expect(result.steps[0]?.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringContaining('the cow cannot be reached'),
    });
  });
});
