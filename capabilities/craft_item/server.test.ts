import { describe, expect, it } from 'vitest';
import { botOf, type MineflayerWorld } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../../test/helpers/embedded.js';

const suite = embeddedSuite({ bot: { inventory: { cobblestone: 3, oak_log: 2 } } });

const craft = (item: string, count = 1, stepId = `craft-${item}`) => ({
  stepId,
  type: 'craft_item',
  args: { item, count },
});

async function tablesNear(center: { x: number; z: number }): Promise<number> {
  const reads: Promise<string>[] = [];
  for (let dx = -4; dx <= 4; dx++)
    for (let dz = -4; dz <= 4; dz++)
      for (const y of [5, 6]) reads.push(suite.server.blockAt({ x: center.x + dx, y, z: center.z + dz }));
  return (await Promise.all(reads)).filter((name) => name === 'crafting_table').length;
}

/**
 * Holds back the server's inventory slot updates on their way to the bot, as a loaded server or network does (the bench
 * with ten bots saw the race this way); their order stays.
 */
function delayInventoryUpdates(world: MineflayerWorld, ms: number): void {
  const client = botOf(world)._client;
  const emit = client.emit.bind(client);
  client.emit = (event: string | symbol, ...args: unknown[]) => {
    if (event !== 'set_slot' && event !== 'window_items') return emit(event, ...args);
    setTimeout(() => emit(event, ...args), ms);
    return true;
  };
}

describe('craft_item on the embedded server', () => {
  it('the worked example: a stone axe from 3 cobblestone and 2 oak logs, via sticks, planks and a placed crafting table', async () => {
    const { result, events } = await suite.run('smith', [craft('stone_axe')]);
    expect(result.steps[0]!.outcome).toEqual({ ok: true });
    const subgoals = events.flatMap((e) => (e.type === 'step.subgoal' ? [e.missing.detail] : []));
    expect(subgoals).toEqual(expect.arrayContaining([{ item: 'stick', count: 2 }, { block: 'crafting_table' }]));
    // 2 logs -> 8 planks; 2 planks -> 4 sticks; 4 planks -> the table (placed); 3 cobblestone + 2 sticks -> the axe.
    const player = suite.server.player('smith')!;
    expect(player.inventory).toEqual({ stone_axe: 1, stick: 2, oak_planks: 2 });
    expect(await tablesNear({ x: Math.floor(player.position.x), z: Math.floor(player.position.z) })).toBe(1);
  });

  it('fails explicitly for an item whose ingredients cannot be made; the inventory is unchanged', async () => {
    const { result } = await suite.run('dreamer', [craft('diamond_pickaxe')]);
    expect(result.ok).toBe(false);
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'precondition_missing' });
    expect(suite.server.player('dreamer')!.inventory).toEqual({ cobblestone: 3, oak_log: 2 });
  });

  it('crafts back to back: each craft reads the inventory as the server holds it, not one the last craft left half-echoed', async () => {
    // Each craft's clicks come back from the server as slot updates after the craft is confirmed; the next craft
    // must not read the pack while those are still arriving (its logs or planks would seem gone).
    const steps = ['oak_planks', 'oak_planks', 'stick', 'stick', 'stick', 'stick'].map((item, run) =>
      craft(item, 1, `craft-${run}-${item}`),
    );
    const { result } = await suite.run('baker', steps, { joined: (bot) => delayInventoryUpdates(bot, 100) });
    expect(result.steps.map((step) => step.outcome)).toEqual(steps.map(() => ({ ok: true })));
    expect(suite.server.player('baker')!.inventory).toEqual({ cobblestone: 3, stick: 16 });
  });
});
