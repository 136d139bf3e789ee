import { describe, expect, it } from 'vitest';
import { match } from '../helpers/matchers.js';
import { embeddedSuite } from '../helpers/embedded.js';

// Midnight, no daylight cycle; the bot spawns at 0,5,0 with a wooden sword. A zombie stands 4 blocks east, its AI on;
// a spider waits 12 blocks north in a roofed stone cage (3 by 3 inside), its AI on: it cannot get out until the
// cage's south wall is taken down, 1 s into the fight. 12 blocks is beyond a spider's join distance (9.6) and within
// its follow range (16), so it comes for the bot once it is out.
const cage = { x: 0, z: -12 };
const box = (from: [number, number, number], to: [number, number, number]) => ({
  from: { x: from[0], y: from[1], z: from[2] },
  to: { x: to[0], y: to[1], z: to[2] },
  block: 'stone',
});
const suite = embeddedSuite({
  timeOfDay: 18_000,
  bot: { inventory: { wooden_sword: 1 } },
  fills: [
    box([cage.x - 2, 5, cage.z - 2], [cage.x + 2, 6, cage.z - 2]),
    box([cage.x - 2, 5, cage.z + 2], [cage.x + 2, 6, cage.z + 2]),
    box([cage.x - 2, 5, cage.z - 1], [cage.x - 2, 6, cage.z + 1]),
    box([cage.x + 2, 5, cage.z - 1], [cage.x + 2, 6, cage.z + 1]),
    box([cage.x - 2, 7, cage.z - 2], [cage.x + 2, 7, cage.z + 2]),
  ],
  mobs: [
    { name: 'zombie', x: 4, y: 5, z: 0 },
    { name: 'spider', x: cage.x, y: 5, z: cage.z },
  ],
});

const RELEASE_AFTER_MS = 1_000;

describe('a fight joined by a mob it was not judged on breaks off, on the embedded server (issue 30)', () => {
  it('a zombie fight judged on the zombie alone, a spider let out of its cage 1 s in: the fight fails preempted as the spider comes, naming it', async () => {
    const [zombie] = await suite.server.livingEntities({ names: ['zombie'], within: 64 }, { x: 0, y: 5, z: 0 });
    let releasedAt: number | null = null;
    let endedAt: number | null = null;
    const release = () => {
      releasedAt = Date.now();
      for (let x = cage.x - 1; x <= cage.x + 1; x++)
        for (const y of [5, 6]) void suite.server.setBlock({ x, y, z: cage.z + 2 }, 'air');
    };
    const { result, bot, deaths } = await suite.run(
      'rejudged',
      [
        { stepId: 'sword', type: 'equip', args: { item: 'wooden_sword' } },
        { stepId: 'fight', type: 'attack_entity', args: { target: { id: zombie!.id }, judgedOn: [zombie!.id] } },
      ],
      {
        onEvent: (event) => {
          if (event.type === 'step.started' && event.stepId === 'fight') setTimeout(release, RELEASE_AFTER_MS);
          if (event.type === 'step.ended' && event.stepId === 'fight') endedAt = Date.now();
        },
      },
    );
    // Left with the zombie and the spider, the bot would be hit on after the test: it leaves.
    await bot.close();
    const outcome = result.steps.find((s) => s.step.stepId === 'fight')!.outcome;
    const summary = JSON.stringify({ outcome, releasedAt, endedAt, deaths });
    expect(deaths, summary).toEqual([]);
    expect(outcome, summary).toEqual({
      ok: false,
      code: 'preempted',
      detail: match.stringContaining('a spider joined the fight with the zombie: judged again'),
    });
    expect(releasedAt, summary).not.toBeNull();
    expect(endedAt!, summary).toBeGreaterThan(releasedAt!);
  }, 60_000);
});
