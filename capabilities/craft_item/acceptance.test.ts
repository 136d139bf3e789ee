import { describe, expect, it } from 'vitest';
import { ManualClock, type PlanStepInput } from '../../src/index.js';
import { dispatchQueryOf, judgeStep, observation } from '../../src/testing/index.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { createDefaultRegistry } from '../index.js';
import navigate from '../navigate/index.js';
import craftItem from './index.js';
import { match } from '../../test/helpers/matchers.js';

function workshop(inventory: Record<string, number>) {
  const clock = new ManualClock();
  const world = SimWorld.create({ clock, inventory });
  const context = async () => ({ world, observation: await world.observe() });
  return { clock, world, context };
}

/**
 * The part of an executor this capability relies on: guard, expand a missing precondition into
 * sub-goals, achieve those first, then act and check acceptance against the world's own state.
 */
async function achieve(
  { clock, world, context }: ReturnType<typeof workshop>,
  step: PlanStepInput,
  trail: string[],
): Promise<void> {
  const resolution = createDefaultRegistry().resolve(step.type);
  if (!resolution.ok) throw new Error(resolution.message);
  const spec = resolution.spec;
  const args = spec.inputSchema.parse(step.args) as {
    item: string;
    count: number;
    position: { x: number; y: number; z: number };
  };
  for (let verdict = spec.guard(await context(), args); !verdict.ok; verdict = spec.guard(await context(), args)) {
    const subgoals = verdict.missing ? spec.subgoals?.(verdict.missing, args, await context()) : null;
    if (!subgoals) throw new Error(`${step.stepId}: ${verdict.reason}`);
    for (const subgoal of subgoals) await achieve({ clock, world, context }, subgoal, trail);
  }
  const query = dispatchQueryOf(spec, args);
  const pre = await world.observe(query);
  const acting =
    step.type === 'craft_item'
      ? world.craft(args.item, Math.ceil(args.count / world.recipe(args.item)!.yields), {
          table: world.findBlocks({ names: ['crafting_table'], maxDistance: 4, count: 1 })[0] ?? null,
        })
      : world.place(args.position, args.item);
  await clock.advance(10_000);
  await acting;
  expect(judgeStep(spec, pre, await world.observe(query), args)).toEqual({ ok: true });
  trail.push(step.stepId);
}

describe('craft_item', () => {
  it('crafts one by default and bounds the count', () => {
    expect(craftItem.inputSchema.parse({ item: 'stick' })).toEqual({ item: 'stick', count: 1 });
    for (const count of [0, 65, 1.5])
      expect(craftItem.inputSchema.safeParse({ item: 'stick', count }).success).toBe(false);
  });

  it('refuses what has no recipe and reports the first missing ingredient with its shortfall', async () => {
    const { context } = workshop({ cobblestone: 3, stick: 1 });
    const guard = async (args: unknown) => craftItem.guard(await context(), craftItem.inputSchema.parse(args));
    expect(await guard({ item: 'oak_log' })).toMatchObject({
      ok: false,
      reason: match.stringMatching(/no recipe for oak_log/),
    });
    expect(await guard({ item: 'stone_axe' })).toEqual({
      ok: false,
      reason: 'missing 1 stick (have 1, need 2) to craft 1 stone_axe',
      missing: { predicate: 'has_item', detail: { item: 'stick', count: 1 } },
    });
    // 5 sticks take 2 crafts of 4, so 4 planks.
    expect(await guard({ item: 'stick', count: 5 })).toMatchObject({
      missing: { predicate: 'has_item', detail: { item: 'oak_planks', count: 4 } },
    });
  });

  it('asks for a crafting table within reach only for 3x3 recipes', async () => {
    const { world, context } = workshop({ cobblestone: 3, stick: 2, oak_planks: 2 });
    expect(craftItem.guard(await context(), craftItem.inputSchema.parse({ item: 'stick' }))).toEqual({ ok: true });
    const axe = craftItem.inputSchema.parse({ item: 'stone_axe' });
    expect(craftItem.guard(await context(), axe)).toMatchObject({
      ok: false,
      missing: { predicate: 'near_block', detail: { block: 'crafting_table' } },
    });
    world.setBlock({ x: 3, y: 0, z: 0 }, 'crafting_table');
    expect(craftItem.guard(await context(), axe)).toEqual({ ok: true });
  });

  it('sub-goals craftable ingredients, leaves raw materials to the planner and splits big counts', async () => {
    const { context } = workshop({});
    const args = craftItem.inputSchema.parse({ item: 'stone_axe' });
    const subgoals = async (item: string, count: number) =>
      craftItem.subgoals!({ predicate: 'has_item', detail: { item, count } }, args, await context());
    expect(await subgoals('stick', 2)).toEqual([
      { stepId: 'subgoal-craft-stick', type: 'craft_item', args: { item: 'stick', count: 2 } },
    ]);
    expect(await subgoals('cobblestone', 3)).toBeNull();
    expect((await subgoals('oak_planks', 100))!.map((s) => [s.stepId, s.args?.count])).toEqual([
      ['subgoal-craft-oak_planks', 64],
      ['subgoal-craft-oak_planks-2', 36],
    ]);
  });

  it('places a missing table on a free, supported cell beside the bot, crafting it first when not held', async () => {
    const { world, context } = workshop({ crafting_table: 1 });
    world.setBlock({ x: 1, y: 0, z: 0 }, 'stone');
    const missing = { predicate: 'near_block', detail: { block: 'crafting_table' } };
    const args = craftItem.inputSchema.parse({ item: 'stone_axe' });
    expect(craftItem.subgoals!(missing, args, await context())).toEqual([
      {
        stepId: 'subgoal-place-crafting_table',
        type: 'place_block',
        args: { position: { x: -1, y: 0, z: 0 }, item: 'crafting_table' },
      },
    ]);
    const withoutTable = craftItem.subgoals!(missing, args, {
      world,
      observation: observation({ position: { x: 0.5, y: 0, z: 0.5 } }),
    });
    expect(withoutTable!.map((s) => s.type)).toEqual(['craft_item', 'place_block']);
  });

  it('walks to a crafting table standing within 32 blocks instead of making a new one', async () => {
    const { clock, world, context } = workshop({ cobblestone: 3, stick: 2 });
    world.setBlock({ x: 12, y: 0, z: 0 }, 'crafting_table');
    const args = craftItem.inputSchema.parse({ item: 'stone_axe' });
    const verdict = craftItem.guard(await context(), args);
    if (verdict.ok || !verdict.missing) throw new Error('expected the table to be missing');
    const steps = craftItem.subgoals!(verdict.missing, args, await context());
    expect(steps).toEqual([
      {
        stepId: 'subgoal-approach-crafting_table',
        type: 'navigate',
        args: { target: { kind: 'near', x: 12, y: 0, z: 0, range: 3 } },
      },
    ]);
    const walking = world.goto(navigate.inputSchema.parse(steps![0]!.args).target);
    await clock.advance(10_000);
    await walking;
    expect(craftItem.guard(await context(), args)).toEqual({ ok: true });
  });

  it('runs the worked example: stone_axe with no sticks and no table, via sub-goals, in a SimWorld', async () => {
    const shop = workshop({ cobblestone: 3, oak_log: 2 });
    const trail: string[] = [];
    await achieve(shop, { stepId: 'make-axe', type: 'craft_item', args: { item: 'stone_axe' } }, trail);
    expect(trail).toEqual([
      'subgoal-craft-oak_planks',
      'subgoal-craft-stick',
      'subgoal-craft-oak_planks',
      'subgoal-craft-crafting_table',
      'subgoal-place-crafting_table',
      'make-axe',
    ]);
    expect(shop.world.inventory()).toMatchObject({ stone_axe: 1 });
  });

  it('accepts only a gain of at least the requested count', () => {
    const args = craftItem.inputSchema.parse({ item: 'stick', count: 4 });
    const pre = observation({ inventory: { stick: 1 } });
    expect(judgeStep(craftItem, pre, observation({ inventory: { stick: 5 } }), args)).toEqual({ ok: true });
    expect(judgeStep(craftItem, pre, observation({ inventory: { stick: 4 } }), args)).toEqual({
      ok: false,
      unmet: ['the pack holds at least 5 stick: it holds 4'],
    });
  });
});
