import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import { EAT_MS, SimWorld, settle, track } from '../../src/world/sim/index.js';
import { match } from '../helpers/matchers.js';

function world(extra: Partial<Parameters<typeof SimWorld.create>[0]> = {}) {
  const clock = new ManualClock();
  return { clock, sim: SimWorld.create({ clock, ...extra }) };
}

describe('SimWorld dig', () => {
  it('takes vanilla time, removes the block, drops the item and picks it up when close', async () => {
    const { clock, sim } = world();
    sim.setBlock({ x: 1, y: 0, z: 0 }, 'oak_log');
    const outcome = track(sim.dig({ x: 1, y: 0, z: 0 }));
    await clock.advance(2950);
    expect(outcome.outcome.state).toBe('pending');
    await clock.advance(50);
    expect(outcome.outcome.state).toBe('ok');
    expect(sim.blockAt({ x: 1, y: 0, z: 0 })?.name).toBe('air');
    expect(sim.inventory()).toEqual({ oak_log: 1 });
    expect(sim.entities()).toEqual([]);
  });

  it('digs faster with the right tool held', async () => {
    const { clock, sim } = world({ inventory: { stone_axe: 1 } });
    sim.setBlock({ x: 1, y: 0, z: 0 }, 'oak_log');
    await settle(clock, sim.equip('stone_axe', 'hand'));
    const startedAt = clock.now();
    await settle(clock, sim.dig({ x: 1, y: 0, z: 0 }));
    expect(sim.actuatorLog.at(-1)!.settledAt! - startedAt).toBe(750);
  });

  it('leaves a far drop on the ground until the bot walks to it', async () => {
    const { clock, sim } = world();
    sim.setBlock({ x: 3, y: 1, z: 0 }, 'dirt');
    await settle(clock, sim.dig({ x: 3, y: 1, z: 0 }));
    expect(sim.entities()).toMatchObject([
      { kind: 'item', item: { name: 'dirt', count: 1 }, position: { x: 3.5, y: 0, z: 0.5 } },
    ]);
    await settle(clock, sim.goto({ kind: 'near', x: 3, y: 0, z: 0, range: 1 }));
    expect(sim.inventory()).toEqual({ dirt: 1 });
  });

  it('drops nothing from stone without a pickaxe, as vanilla', async () => {
    const { clock, sim } = world();
    sim.setBlock({ x: 1, y: 0, z: 0 }, 'stone');
    expect(await settle(clock, sim.dig({ x: 1, y: 0, z: 0 }))).toEqual({ state: 'ok' });
    expect(sim.entities()).toEqual([]);
  });

  it('refuses air, unbreakable blocks and blocks out of reach', async () => {
    const { clock, sim } = world({ unbreakable: ['obsidian'] });
    sim
      .setBlock({ x: 1, y: 0, z: 0 }, 'obsidian')
      .setBlock({ x: 0, y: 0, z: 1 }, 'bedrock')
      .setBlock({ x: 9, y: 0, z: 0 }, 'dirt');
    expect(sim.blockAt({ x: 1, y: 0, z: 0 })?.diggable).toBe(false);
    expect(await settle(clock, sim.dig({ x: 2, y: 0, z: 0 }))).toMatchObject({
      code: 'guard_failed',
      message: match.stringContaining('nothing to dig'),
    });
    expect(await settle(clock, sim.dig({ x: 1, y: 0, z: 0 }))).toMatchObject({
      code: 'guard_failed',
      message: match.stringContaining('obsidian'),
    });
    expect(await settle(clock, sim.dig({ x: 0, y: 0, z: 1 }))).toMatchObject({ code: 'guard_failed' });
    expect(await settle(clock, sim.dig({ x: 9, y: 0, z: 0 }))).toMatchObject({
      code: 'precondition_missing',
      message: match.stringContaining('reach'),
    });
  });

  it('lets the bot fall when the block under it is dug', async () => {
    const { clock, sim } = world();
    await settle(clock, sim.dig({ x: 0, y: -1, z: 0 }));
    expect(sim.position().y).toBe(-1);
    // grass_block drops dirt; the drop lands where the bot now stands, so it is picked up.
    expect(sim.inventory()).toEqual({ dirt: 1 });
  });
});

describe('SimWorld place', () => {
  it('places a block from the inventory next to a solid face', async () => {
    const { clock, sim } = world({ inventory: { cobblestone: 2 } });
    expect(await settle(clock, sim.place({ x: 2, y: 0, z: 0 }, 'cobblestone'))).toEqual({ state: 'ok' });
    expect(sim.blockAt({ x: 2, y: 0, z: 0 })?.name).toBe('cobblestone');
    expect(sim.inventory()).toEqual({ cobblestone: 1 });
  });

  it("refuses the bot's own cells, taken cells, floating cells and missing items", async () => {
    const { clock, sim } = world({ inventory: { cobblestone: 5 } });
    sim.setBlock({ x: 1, y: 0, z: 0 }, 'dirt');
    expect(await settle(clock, sim.place({ x: 0, y: 0, z: 0 }, 'cobblestone'))).toMatchObject({
      code: 'guard_failed',
      message: match.stringContaining('own cell'),
    });
    expect(await settle(clock, sim.place({ x: 0, y: 1, z: 0 }, 'cobblestone'))).toMatchObject({
      code: 'guard_failed',
      message: match.stringContaining('own cell'),
    });
    expect(await settle(clock, sim.place({ x: 1, y: 0, z: 0 }, 'cobblestone'))).toMatchObject({
      code: 'guard_failed',
      message: match.stringContaining('taken by dirt'),
    });
    expect(await settle(clock, sim.place({ x: 2, y: 3, z: 0 }, 'cobblestone'))).toMatchObject({
      code: 'guard_failed',
      message: match.stringContaining('no solid face'),
    });
    expect(await settle(clock, sim.place({ x: 0, y: 0, z: 2 }, 'oak_planks'))).toMatchObject({
      code: 'precondition_missing',
    });
    expect(await settle(clock, sim.place({ x: 0, y: 0, z: 2 }, 'stick'))).toMatchObject({
      code: 'guard_failed',
      message: match.stringContaining('not a placeable'),
    });
    expect(sim.inventory()).toEqual({ cobblestone: 5 });
  });

  it('pillars up: jump, place under the feet once risen, land on the new block', async () => {
    const { clock, sim } = world({ inventory: { cobblestone: 1 } });
    const jump = track(sim.move('jump', 600));
    await clock.advance(100);
    expect(sim.position().y).toBe(0);
    expect(await settle(clock, sim.place({ x: 0, y: 0, z: 0 }, 'cobblestone'))).toMatchObject({ code: 'guard_failed' });
    await clock.advance(100);
    expect(sim.position().y).toBe(1);
    expect(await settle(clock, sim.place({ x: 0, y: 0, z: 0 }, 'cobblestone'))).toEqual({ state: 'ok' });
    await clock.advance(1000);
    expect(jump.outcome.state).toBe('ok');
    expect(sim.position()).toEqual({ x: 0.5, y: 1, z: 0.5 });
  });

  it('a jump without a block placed lands back where it started', async () => {
    const { clock, sim } = world();
    await settle(clock, sim.move('jump', 300));
    expect(sim.position().y).toBe(1);
    await clock.advance(300);
    expect(sim.position().y).toBe(0);
  });
});

describe('SimWorld craft', () => {
  it('crafts planks, sticks and a table by hand and consumes the ingredients', async () => {
    const { clock, sim } = world({ inventory: { oak_log: 2 } });
    expect(await settle(clock, sim.craft('oak_planks', 2))).toEqual({ state: 'ok' });
    expect(await settle(clock, sim.craft('stick', 1))).toEqual({ state: 'ok' });
    expect(sim.inventory()).toEqual({ oak_planks: 6, stick: 4 });
    await settle(clock, sim.craft('crafting_table', 1));
    expect(sim.inventory()).toEqual({ oak_planks: 2, stick: 4, crafting_table: 1 });
  });

  it('needs a crafting table within reach for a 3x3 recipe', async () => {
    const { clock, sim } = world({ inventory: { cobblestone: 3, stick: 2 } });
    expect(await settle(clock, sim.craft('stone_axe', 1))).toMatchObject({
      code: 'precondition_missing',
      message: match.stringContaining('crafting_table'),
    });
    sim.setBlock({ x: 9, y: 0, z: 0 }, 'crafting_table');
    expect(await settle(clock, sim.craft('stone_axe', 1))).toMatchObject({ code: 'precondition_missing' });
    sim.setBlock({ x: 2, y: 0, z: 2 }, 'crafting_table');
    expect(await settle(clock, sim.craft('stone_axe', 1, { table: { x: 9, y: 0, z: 0 } }))).toMatchObject({
      code: 'precondition_missing',
      message: match.stringContaining('reach'),
    });
    expect(await settle(clock, sim.craft('stone_axe', 1))).toEqual({ state: 'ok' });
    expect(sim.inventory()).toEqual({ stone_axe: 1 });
  });

  it('names every missing ingredient and changes nothing', async () => {
    const { clock, sim } = world({ inventory: { cobblestone: 1 } });
    sim.setBlock({ x: 1, y: 0, z: 1 }, 'crafting_table');
    expect(await settle(clock, sim.craft('stone_axe', 1))).toMatchObject({
      code: 'precondition_missing',
      message: match.stringMatching(/2 cobblestone, 2 stick/),
    });
    expect(await settle(clock, sim.craft('bedrock', 1))).toMatchObject({
      code: 'guard_failed',
      message: match.stringContaining('no crafting recipe'),
    });
    expect(await settle(clock, sim.craft('stick', 0))).toMatchObject({ code: 'schema_violation' });
    expect(sim.inventory()).toEqual({ cobblestone: 1 });
  });
});

describe('SimWorld equip and consume', () => {
  it('equips an item into the hand or an armour slot, and refuses what it lacks', async () => {
    const { clock, sim } = world({ inventory: { stone_axe: 1, iron_helmet: 1 } });
    expect(await settle(clock, sim.equip('stone_axe', 'hand'))).toEqual({ state: 'ok' });
    expect(sim.heldItem()).toBe('stone_axe');
    expect(await settle(clock, sim.equip('iron_helmet', 'head'))).toEqual({ state: 'ok' });
    expect(sim.heldItem()).toBe('stone_axe');
    expect(sim.equipped('head')).toBe('iron_helmet');
    expect(sim.equipped('feet')).toBeNull();
    expect(await settle(clock, sim.equip('diamond_sword', 'hand'))).toMatchObject({ code: 'precondition_missing' });
  });

  it('eats over 1.6 s of clock time and raises food by the food points', async () => {
    const { clock, sim } = world({ inventory: { bread: 2 }, food: 10 });
    const outcome = track(sim.consume('bread'));
    await clock.advance(EAT_MS - 1);
    expect(sim.food()).toBe(10);
    await clock.advance(1);
    expect(outcome.outcome.state).toBe('ok');
    expect(sim.food()).toBe(15);
    expect(sim.inventory()).toEqual({ bread: 1 });
  });

  it('refuses non-food, missing food and a full stomach', async () => {
    const { clock, sim } = world({ inventory: { cobblestone: 1, bread: 1 } });
    expect(await settle(clock, sim.consume('cobblestone'))).toMatchObject({
      code: 'guard_failed',
      message: match.stringContaining('not food'),
    });
    expect(await settle(clock, sim.consume('apple'))).toMatchObject({ code: 'precondition_missing' });
    expect(await settle(clock, sim.consume('bread'))).toMatchObject({
      code: 'guard_failed',
      message: match.stringContaining('full'),
    });
  });
});

describe('SimWorld observations and moves', () => {
  it('observe() copies state, so later changes do not leak into a snapshot', async () => {
    const { clock, sim } = world({ inventory: { dirt: 1 } });
    const before = await sim.observe({ blocks: [{ x: 1, y: 0, z: 0 }] });
    await settle(clock, sim.place({ x: 1, y: 0, z: 0 }, 'dirt'));
    await settle(clock, sim.goto({ kind: 'block', x: 0, y: 0, z: 3 }));
    expect(before).toEqual({
      at: 0,
      position: { x: 0.5, y: 0, z: 0.5 },
      footing: { onGround: true, ground: 0 },
      health: 20,
      food: 20,
      inventory: { dirt: 1 },
      heldItem: null,
      blocks: { '1,0,0': 'air' },
    });
    expect((await sim.observe({ blocks: [{ x: 1, y: 0, z: 0 }] })).blocks).toEqual({ '1,0,0': 'dirt' });
  });

  it('position() is one live object (allocation-free reads)', async () => {
    const { clock, sim } = world();
    const live = sim.position();
    await settle(clock, sim.goto({ kind: 'block', x: 2, y: 0, z: 0 }));
    expect(sim.position()).toBe(live);
    expect(live.x).toBe(2.5);
  });

  it('walks back and forward relative to the last direction faced', async () => {
    const { clock, sim } = world();
    await settle(clock, sim.goto({ kind: 'block', x: 2, y: 0, z: 0 }));
    await settle(clock, sim.move('back', 500));
    expect(sim.position().x).toBe(0.5);
    await settle(clock, sim.move('left', 300));
    expect(sim.position()).toMatchObject({ x: 0.5, z: -0.5 });
  });

  it('finds the nearest named blocks, and lists hostiles and items', () => {
    const { sim } = world();
    sim
      .setBlock({ x: 5, y: 0, z: 0 }, 'oak_log')
      .setBlock({ x: 2, y: 0, z: 0 }, 'oak_log')
      .setBlock({ x: 40, y: 0, z: 0 }, 'oak_log');
    expect(sim.findBlocks({ names: ['oak_log'], maxDistance: 16, count: 5 })).toEqual([
      { x: 2, y: 0, z: 0 },
      { x: 5, y: 0, z: 0 },
    ]);
    expect(sim.findBlocks({ names: ['grass_block'], maxDistance: 1, count: 1 })).toEqual([{ x: 0, y: -1, z: 0 }]);
    const zombie = sim.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 3, y: 0, z: 3 } });
    const listed = sim.entities();
    expect(listed).toEqual([{ id: zombie, name: 'zombie', kind: 'hostile', position: { x: 3, y: 0, z: 3 } }]);
    expect(sim.moveEntity(zombie, { x: 1, y: 0, z: 1 })).toBe(true);
    expect(sim.entities()[0]!.position).toEqual({ x: 1, y: 0, z: 1 });
    expect(listed[0]!.position).toEqual({ x: 3, y: 0, z: 3 });
    expect(sim.removeEntity(zombie)).toBe(true);
    expect(sim.moveEntity(zombie, { x: 0, y: 0, z: 0 })).toBe(false);
  });

  it('emits hurt when health drops', () => {
    const { sim } = world();
    const hurts: number[] = [];
    sim.events.on('hurt', (h) => hurts.push(h));
    sim.setHealth(12).setHealth(15);
    expect(hurts).toEqual([12]);
    expect(sim.health()).toBe(15);
  });
});

describe('SimWorld actuator accounting', () => {
  it('logs every call with start, settle time and outcome, and counts live calls', async () => {
    const { clock, sim } = world({ inventory: { dirt: 1 } });
    const walking = track(sim.goto({ kind: 'block', x: 3, y: 0, z: 0 }));
    await clock.advance(100);
    expect(sim.liveActuators()).toBe(1);
    await clock.advance(1000);
    expect(walking.outcome.state).toBe('ok');
    await settle(clock, sim.place({ x: 9, y: 0, z: 9 }, 'dirt'));
    expect(sim.liveActuators()).toBe(0);
    expect(sim.actuatorLog).toEqual([
      { seq: 1, command: 'goto', detail: 'block 3,0,0', startedAt: 0, settledAt: 3 * 232, outcome: 'ok' },
      {
        seq: 2,
        command: 'place',
        detail: 'dirt at 9,0,9',
        startedAt: 1100,
        settledAt: 1100,
        outcome: 'precondition_missing',
      },
    ]);
  });

  it('can count without keeping a log', async () => {
    const clock = new ManualClock();
    const sim = SimWorld.create({ clock, recordActuatorLog: false });
    const walking = track(sim.goto({ kind: 'block', x: 3, y: 0, z: 0 }));
    await clock.advance(0);
    expect(sim.liveActuators()).toBe(1);
    await clock.advance(1000);
    expect(walking.outcome.state).toBe('ok');
    expect(sim.liveActuators()).toBe(0);
    expect(sim.actuatorLog).toEqual([]);
  });
});
