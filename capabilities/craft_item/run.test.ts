import { describe, expect, it } from 'vitest';
import { harness, plan } from '../../test/helpers/executor.js';
import { match } from '../../test/helpers/matchers.js';

const craft = (item: string, count = 1) => ({ stepId: `craft-${item}`, type: 'craft_item', args: { item, count } });

describe('craft_item runs end to end on SimWorld', () => {
  it('the worked example: a stone axe from 3 cobblestone and 2 oak logs, no table', async () => {
    const h = await harness({ inventory: { cobblestone: 3, oak_log: 2 } });
    const result = await h.run(plan(craft('stone_axe')));
    expect(result.ok).toBe(true);
    // The plan's own step, with its sub-goals (planks, then sticks) listed under it.
    const own = result.steps.filter((s) => s.parentStepId === undefined);
    expect(own).toMatchObject([{ outcome: { ok: true } }]);
    expect(
      result.steps
        .filter((s) => s.parentStepId !== undefined)
        .every((s) => s.outcome.ok && s.step.stepId.startsWith(`${own[0]!.step.stepId}/`)),
    ).toBe(true);

    const subgoals = h.events
      .filter((e) => e.type === 'step.subgoal')
      .map((e) => [e.stepId, e.missing.detail, e.subgoalStepIds]);
    expect(subgoals).toEqual([
      ['craft-stone_axe', { item: 'stick', count: 2 }, ['craft-stone_axe/subgoal-craft-stick']],
      [
        'craft-stone_axe/subgoal-craft-stick',
        { item: 'oak_planks', count: 2 },
        ['craft-stone_axe/subgoal-craft-stick/subgoal-craft-oak_planks'],
      ],
      [
        'craft-stone_axe',
        { block: 'crafting_table' },
        ['craft-stone_axe/subgoal-craft-crafting_table', 'craft-stone_axe/subgoal-place-crafting_table'],
      ],
      [
        'craft-stone_axe/subgoal-craft-crafting_table',
        { item: 'oak_planks', count: 2 },
        ['craft-stone_axe/subgoal-craft-crafting_table/subgoal-craft-oak_planks'],
      ],
    ]);
    const ended = h.events.flatMap((e) => (e.type === 'step.ended' && e.outcome.ok ? [e.stepId] : []));
    expect(ended).toEqual([
      'craft-stone_axe/subgoal-craft-stick/subgoal-craft-oak_planks',
      'craft-stone_axe/subgoal-craft-stick',
      'craft-stone_axe/subgoal-craft-crafting_table/subgoal-craft-oak_planks',
      'craft-stone_axe/subgoal-craft-crafting_table',
      'craft-stone_axe/subgoal-place-crafting_table',
      'craft-stone_axe',
    ]);
    // 2 logs -> 8 planks; 2 planks -> 4 sticks; 4 planks -> the table (placed); 3 cobblestone + 2 sticks -> the axe.
    expect(h.world.inventory()).toEqual({ stone_axe: 1, stick: 2, oak_planks: 2 });
    expect(h.world.findBlocks({ names: ['crafting_table'], maxDistance: 2, count: 2 })).toHaveLength(1);
  });

  it('the whole acquire-wood plan: walk to a tree, make the axe through sub-goals, fell a log with it, pick it up', async () => {
    const h = await harness({
      inventory: { cobblestone: 3, oak_log: 2 },
      blocks: [0, 1, 2, 3].map((y) => ({ position: { x: 7, y, z: 0 }, name: 'oak_log' })),
    });
    const result = await h.run(
      plan(
        { stepId: 'walk-to-tree', type: 'navigate', args: { target: { kind: 'near', x: 6, y: 0, z: 0, range: 2 } } },
        craft('stone_axe'),
        { stepId: 'fell-log', type: 'dig_block', args: { position: { x: 7, y: 0, z: 0 }, block: 'oak_log' } },
        { stepId: 'pick-up-log', type: 'collect_drops', args: { item: 'oak_log', radius: 8 } },
      ),
    );
    expect(result).toMatchObject({ ok: true, retries: 0 });
    expect(result.steps.filter((s) => s.parentStepId === undefined).map((s) => [s.step.stepId, s.outcome.ok])).toEqual([
      ['walk-to-tree', true],
      ['craft-stone_axe', true],
      ['fell-log', true],
      ['pick-up-log', true],
    ]);
    expect(h.world.heldItem()).toBe('stone_axe');
    expect(h.world.inventory()).toEqual({ stone_axe: 1, stick: 2, oak_planks: 2, oak_log: 1 });
  });

  it('walks up to a table the guard admitted but the hand cannot reach, then crafts at it', async () => {
    // The bot stands on a 3-high column: the table below is within the guard's 4 blocks of its feet, but 4.6 from its
    // eyes.
    const h = await harness({
      spawn: { x: 0, y: 3, z: 0 },
      inventory: { cobblestone: 3, stick: 2 },
      blocks: [
        ...[0, 1, 2].map((y) => ({ position: { x: 0, y, z: 0 }, name: 'stone' })),
        { position: { x: 2, y: 0, z: 0 }, name: 'crafting_table' },
      ],
    });
    const result = await h.run(plan(craft('stone_axe')));
    expect(result.ok).toBe(true);
    expect(h.events.filter((e) => e.type === 'step.subgoal')).toEqual([]);
    expect(h.world.actuatorLog.map((entry) => entry.command)).toEqual(['goto', 'craft']);
    expect(h.world.position().y).toBe(0);
    expect(h.world.inventory()).toEqual({ stone_axe: 1 });
  });

  it('places a table it carries rather than walking back to one it left (which may be cut off by then)', async () => {
    const h = await harness({
      inventory: { cobblestone: 3, stick: 2, crafting_table: 1 },
      blocks: [{ position: { x: 12, y: 0, z: 0 }, name: 'crafting_table' }],
    });
    const result = await h.run(plan(craft('stone_axe')));
    expect(result.ok).toBe(true);
    const subgoals = h.events.flatMap((e) => (e.type === 'step.subgoal' ? e.subgoalStepIds : []));
    expect(subgoals).toEqual(['craft-stone_axe/subgoal-place-crafting_table']);
    expect(h.world.actuatorLog.map((entry) => entry.command)).not.toContain('goto');
    expect(h.world.inventory()).toEqual({ stone_axe: 1 });
  });

  it('makes a table from the planks in its pack rather than walk to one beyond a short walk (SimWorld tech-tree world 10)', async () => {
    // The table 20 blocks off: a bot down its mine was sent back to one at the surface, found no path, and failed.
    const far = await harness({
      ground: { radius: 30 },
      inventory: { cobblestone: 3, stick: 2, oak_planks: 4 },
      blocks: [{ position: { x: 20, y: 0, z: 0 }, name: 'crafting_table' }],
    });
    expect((await far.run(plan(craft('stone_axe')))).ok).toBe(true);
    const made = far.events.flatMap((e) => (e.type === 'step.subgoal' ? e.subgoalStepIds : []));
    expect(made).toEqual([
      'craft-stone_axe/subgoal-craft-crafting_table',
      'craft-stone_axe/subgoal-place-crafting_table',
    ]);
    expect(far.world.actuatorLog.map((entry) => entry.command)).not.toContain('goto');
    // A table a short walk away on its level is walked to, planks or not.
    const near = await harness({
      inventory: { cobblestone: 3, stick: 2, oak_planks: 4 },
      blocks: [{ position: { x: 6, y: 0, z: 0 }, name: 'crafting_table' }],
    });
    expect((await near.run(plan(craft('stone_axe')))).ok).toBe(true);
    expect(near.world.actuatorLog.map((entry) => entry.command)).toEqual(['goto', 'craft']);
    expect(near.world.inventory()).toEqual({ stone_axe: 1, oak_planks: 4 });
  });

  it('fails with precondition_missing when a raw ingredient is missing (no sub-goal can make it)', async () => {
    const h = await harness({ inventory: { stick: 2 } });
    const result = await h.run(plan(craft('stone_axe')));
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringMatching(/missing 3 cobblestone/),
    });
    expect(h.world.actuatorLog).toEqual([]);
    expect(h.world.inventory()).toEqual({ stick: 2 });
  });
  it('gathers a raw ingredient it lacks with collect_block, from the nearest block that drops it', async () => {
    const stone = [0, 1, 2, 3].map((x) => ({ position: { x: 3 + x, y: 0, z: 2 }, name: 'stone' }));
    const h = await harness({
      inventory: { wooden_pickaxe: 1, stick: 2 },
      blocks: [...stone, { position: { x: -2, y: 0, z: 0 }, name: 'crafting_table' }],
    });
    const result = await h.run(plan(craft('stone_axe')));
    expect(result.ok, JSON.stringify(result.detail)).toBe(true);
    const subgoals = h.events
      .filter((e) => e.type === 'step.subgoal')
      .map((e) => [e.stepId, e.missing.detail, e.subgoalStepIds]);
    expect(subgoals[0]).toEqual([
      'craft-stone_axe',
      { item: 'cobblestone', count: 3 },
      ['craft-stone_axe/subgoal-gather-cobblestone'],
    ]);
    const gather = result.steps.find((s) => s.step.stepId === 'craft-stone_axe/subgoal-gather-cobblestone');
    expect(gather).toMatchObject({
      step: { type: 'collect_block', args: { block: 'stone', count: 3 } },
      outcome: { ok: true },
    });
    expect(h.world.inventory()).toMatchObject({ stone_axe: 1, wooden_pickaxe: 1 });
    expect(h.world.inventory().cobblestone ?? 0).toBe(0);
  });

  it('takes an empty pack to a stone pickaxe through sub-goals alone, when the policy allows their depth', async () => {
    const trunk = [0, 1, 2, 3].map((y) => ({ position: { x: 5, y, z: 0 }, name: 'oak_log' }));
    const stone = [0, 1, 2].map((x) => ({ position: { x: -4 - x, y: 0, z: 3 }, name: 'stone' }));
    const h = await harness({ blocks: [...trunk, ...stone] }, { policy: { maxSubgoalDepth: 6 } });
    const result = await h.run(plan(craft('stone_pickaxe')), 600_000);
    expect(result.ok, JSON.stringify(result.detail)).toBe(true);
    const gathered = result.steps.filter((s) => s.step.type === 'collect_block').map((s) => s.step.args);
    expect(gathered).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ block: 'oak_log' }),
        expect.objectContaining({ block: 'stone', count: 3 }),
      ]),
    );
    expect(h.world.inventory().stone_pickaxe).toBe(1);
  });

  it('smelts the iron an iron pickaxe needs (not nuggets): mines the ore with the stone pickaxe, burns planks in a furnace it places', async () => {
    const ore = [0, 1, 2].map((x) => ({ position: { x: 4 + x, y: 0, z: -3 }, name: 'iron_ore' }));
    const h = await harness(
      {
        inventory: { stone_pickaxe: 1, stick: 2, cobblestone: 8, oak_planks: 6 },
        blocks: [...ore, { position: { x: -2, y: 0, z: 0 }, name: 'crafting_table' }],
      },
      { policy: { maxSubgoalDepth: 4 } },
    );
    const result = await h.run(plan(craft('iron_pickaxe')), 600_000);
    expect(
      result.ok,
      JSON.stringify(result.steps.filter((s) => !s.outcome.ok).map((s) => [s.step.stepId, s.outcome])),
    ).toBe(true);
    const verbs = result.steps.map((s) => [s.step.type, s.step.args]);
    expect(verbs).toContainEqual(['smelt_item', { item: 'iron_ingot', count: 3 }]);
    expect(verbs).toContainEqual(['collect_block', { block: '#iron_ores', count: 3, radius: 32 }]);
    expect(verbs.some(([, args]) => JSON.stringify(args).includes('nugget'))).toBe(false);
    expect(h.world.inventory().iron_pickaxe).toBe(1);
  });

  it('gives a raw ingredient back to the planner when no block that drops it is in sight', async () => {
    const h = await harness({
      inventory: { wooden_pickaxe: 1, stick: 2 },
      blocks: [{ position: { x: 40, y: 0, z: 0 }, name: 'stone' }],
    });
    const result = await h.run(plan(craft('stone_axe')));
    expect(result.steps[0]!.outcome).toMatchObject({
      ok: false,
      code: 'precondition_missing',
      detail: match.stringMatching(/missing 3 cobblestone/),
    });
    expect(h.world.actuatorLog).toEqual([]);
  });
});
