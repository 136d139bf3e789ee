import { describe, expect, it } from 'vitest';
import { deriveSeed, mulberry32 } from '../../src/random.js';
import { mobLoot } from '../../src/world/mob-rules/index.js';
import { embeddedSuite } from '../helpers/embedded.js';

// A cow that stands where it is put (ai: false), so the kill, its loot and the pickup are about the loot alone; the
// bot holds an iron sword (a cow's 10 health in two hits).
const suite = embeddedSuite({
  bot: { inventory: { iron_sword: 1 } },
  mobs: [{ name: 'cow', x: 3, y: 5, z: 2, ai: false }],
});

describe('mob loot on the embedded server', () => {
  it("a cow killed with attack_entity drops raw beef where it died; collect_drops picks it up into the server's inventory", async () => {
    const at = { x: 3.5, y: 5, z: 2.5 };
    expect(await suite.server.droppedItems(at, 8)).toEqual([]);
    // The server's drops the moment the kill is confirmed, before the pickup (read synchronously in process).
    let afterKill: ReturnType<typeof suite.server.droppedItems> | null = null;
    const { result } = await suite.run(
      'butcher',
      [
        { stepId: 'kill', type: 'attack_entity', args: { target: { name: 'cow' } } },
        { stepId: 'collect', type: 'collect_drops', args: { item: 'beef', radius: 8 } },
      ],
      {
        onEvent: (event) => {
          if (event.type === 'step.ended' && event.stepId === 'kill') afterKill = suite.server.droppedItems(at, 8);
        },
      },
    );
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    const lying = await afterKill!;
    // The server's first kill draws from its loot stream (a superflat world's seed is 0), as SimWorld's do.
    const drawn = mobLoot('cow', mulberry32(deriveSeed(0, 'loot')), true);
    expect(lying.map(({ name, count }) => ({ item: name, count }))).toEqual(expect.arrayContaining(drawn));
    expect(lying).toHaveLength(drawn.length);
    const beef = lying.filter((drop) => drop.name === 'beef');
    expect(beef[0]!.count).toBeGreaterThanOrEqual(1);
    expect(suite.server.player('butcher')!.inventory.beef).toBe(beef[0]!.count);
    expect((await suite.server.droppedItems(at, 8)).filter((drop) => drop.name === 'beef')).toEqual([]);
  }, 90_000);
});
