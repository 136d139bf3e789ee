import { describe, expect, it } from 'vitest';
import type { ProgressEvent } from '../../src/runtime/index.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import { simWorldFromScenario } from '../../src/world/sim-scenario.js';
import { harness, plan } from '../../test/helpers/executor.js';

const trunk = (x: number, z: number, name = 'oak_log', height = 3) =>
  Array.from({ length: height }, (_, y) => ({ position: { x, y, z }, name }));
const collect = (args: Record<string, unknown>) => ({ stepId: 'gather', type: 'collect_block', args });

describe('collect_block runs end to end on SimWorld', () => {
  it('gathers the asked number of logs from the nearest trunks, reporting progress, verified by the pack', async () => {
    const progress: ProgressEvent[] = [];
    const h = await harness(
      { blocks: [...trunk(6, 0), ...trunk(-8, 3, 'birch_log')] },
      { hooks: { progress: (event) => progress.push(event) } },
    );
    const result = await h.run(plan(collect({ block: '#logs', count: 4 })));
    expect(result).toMatchObject({ ok: true, steps: [{ outcome: { ok: true } }] });
    const logs = (h.world.inventory().oak_log ?? 0) + (h.world.inventory().birch_log ?? 0);
    expect(logs).toBeGreaterThanOrEqual(4);
    expect(h.world.inventory().oak_log).toBe(3); // the nearest trunk first, all of it
    expect(progress.at(-1)).toMatchObject({ done: 4, total: 4 });
  });

  it('crafts the pickaxe stone needs first (a sub-goal), then mines cobblestone', async () => {
    const stone = [0, 1, 2].map((x) => ({ position: { x: 4 + x, y: 0, z: 2 }, name: 'stone' }));
    const h = await harness({ blocks: stone, inventory: { oak_planks: 7, stick: 2 } });
    const result = await h.run(plan(collect({ block: 'stone', count: 2 })));
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(result.steps.map((s) => s.step.type)).toEqual(['craft_item', 'place_block', 'craft_item', 'collect_block']);
    expect(h.world.inventory().cobblestone).toBe(2);
  });

  it('fails explicitly when the radius holds fewer blocks than asked, saying how many it got', async () => {
    const h = await harness({ blocks: trunk(5, 0, 'oak_log', 2) });
    const result = await h.run(plan(collect({ block: 'oak_log', count: 5, radius: 16 })));
    expect(result).toMatchObject({ ok: false });
    expect(result.detail).toMatch(/gained 2 of the 5 asked|holds at least 5 of oak_log: it holds 2/);
    expect(h.world.inventory().oak_log).toBe(2);
  });

  it('mines a pocket under a bedrock ceiling, where no dug cell has room to stand in: every drop is picked up from beside it', async () => {
    // The bot's two cells open; stone all round at its feet, bedrock at its head and above: each nook dug stays one
    // high.
    const blocks = [];
    for (let x = -2; x <= 2; x++) {
      for (let z = -2; z <= 2; z++) {
        if (x !== 0 || z !== 0) blocks.push({ position: { x, y: 0, z }, name: 'stone' });
        if (x !== 0 || z !== 0) blocks.push({ position: { x, y: 1, z }, name: 'bedrock' });
        blocks.push({ position: { x, y: 2, z }, name: 'bedrock' });
      }
    }
    const h = await harness({ blocks, inventory: { wooden_pickaxe: 1 } });
    const result = await h.run(plan(collect({ block: 'stone', count: 6, radius: 8 })));
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(h.world.inventory().cobblestone).toBe(6);
    // Beside a diagonal nook is close enough: no walk asked for a cell no body fits in.
    expect(
      h.world.actuatorLog
        .filter((entry) => entry.command === 'goto' && entry.outcome !== 'ok')
        .map((entry) => entry.detail),
    ).toEqual([]);
  });

  it('leaves an ore in a wall above its head, whose drop would stay in the nook out of reach, for one it can pick up', async () => {
    // A stone wall three high at x=2; the ore in it two above the bot's feet, its face open towards the bot.
    const wall = [];
    for (let y = 0; y <= 3; y++)
      for (let z = -1; z <= 1; z++)
        wall.push({ position: { x: 2, y, z }, name: y === 2 && z === 0 ? 'iron_ore' : 'stone' });
    const h = await harness({
      blocks: [...wall, { position: { x: -6, y: 0, z: 0 }, name: 'iron_ore' }],
      inventory: { stone_pickaxe: 1 },
    });
    const result = await h.run(plan(collect({ block: '#iron_ores', count: 1, radius: 16 })));
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(h.world.inventory().raw_iron).toBe(1);
    expect(h.world.blockAt({ x: 2, y: 2, z: 0 })?.name).toBe('iron_ore');
    // No walk towards a drop that no walk reaches (three of them in a row trip the path watchdog).
    expect(h.world.actuatorLog.filter((entry) => entry.command === 'goto' && entry.outcome !== 'ok')).toEqual([]);
  });

  it('walking to a tree 45 blocks off reports the way closed as progress, so the stuck detector does not cut the walk', async () => {
    const progress: ProgressEvent[] = [];
    const h = await harness(
      { blocks: trunk(45, 0, 'oak_log', 1) },
      { hooks: { progress: (event) => progress.push(event) } },
    );
    const result = await h.run(plan(collect({ block: 'oak_log', count: 1, radius: 48 })));
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    expect(h.events.filter((event) => event.type === 'step.stuck' || event.type === 'step.retry')).toEqual([]);
    const onTheWay = progress.map((event) => event.done).filter((done) => done > 0 && done < 1);
    expect(onTheWay.length).toBeGreaterThan(0);
    expect(onTheWay).toEqual([...onTheWay].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ done: 1, total: 1 });
  });

  it('resumed after a safety flee, searches from where the step started, not from where the flight ended', async () => {
    // A trunk 6 blocks east within the step's radius of 8; a zombie 3 blocks east, between the bot and the tree. The
    // bot (avoiding fights: by default it would fight the zombie) flees west of it, 16 blocks or more (x <= -13, 19
    // blocks from the trunk), the zombie is gone when the flight ends, and the step resumes there: the trunk is where it
    // was, within the radius of where the step started.
    const h = await harness(
      { blocks: trunk(6, 0), ground: { radius: 40 } },
      { policy: { safety: { combat: 'avoid' } } },
    );
    const zombie = h.world.spawnEntity({ name: 'zombie', kind: 'hostile', position: { x: 3.5, y: 0, z: 0.5 } });
    let fledTo: number | null = null;
    h.assembly.executor.events.on('event', (event) => {
      if (event.type !== 'step.ended' || event.verb !== 'flee') return;
      h.world.removeEntity(zombie);
      fledTo = h.world.position().x;
    });
    const result = await h.run(plan(collect({ block: 'oak_log', count: 3, radius: 8 })));
    expect(fledTo).not.toBeNull();
    expect(fledTo!).toBeLessThanOrEqual(-13 + 1);
    const gather = result.steps.find((s) => s.step.stepId === 'gather')!;
    expect(gather.outcome, JSON.stringify(gather.outcome)).toEqual({ ok: true });
    expect(h.world.inventory().oak_log).toBe(3);
  });

  it('refuses before moving when nothing of the kind is in sight', async () => {
    const h = await harness();
    const result = await h.run(plan(collect({ block: '#iron_ores', radius: 16 })));
    expect(result).toMatchObject({ ok: false, code: 'precondition_missing' });
    expect(result.detail).toContain('no #iron_ores within 16 blocks');
    expect(h.world.actuatorLog).toEqual([]);
  });
  // One world a test: each seed's path searches run on virtual time but are CPU-bound (some 4 s alone, 33 s for all
  // eight), so one test of eight ran past its 120 s limit on a machine busy with other work. The limit only catches a
  // hang; time inside is the ManualClock's.
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'on generated survival terrain (seed %i), gathering stone never cuts the bot off from where it came',
    async (seed) => {
      const scenario = parseScenario({
        name: 'survival',
        terrain: { kind: 'survival', seed },
        bot: { inventory: { wooden_pickaxe: 1 } },
      });
      const h = await harness((clock) => simWorldFromScenario(scenario, { clock, seed }));
      const { x, y, z } = scenario.spawn;
      const result = await h.run(
        plan(collect({ block: '#stone', count: 4, radius: 48 }), {
          stepId: 'back',
          type: 'navigate',
          args: { target: { kind: 'near', x, y, z, range: 2 } },
        }),
      );
      expect(result.steps.map((s) => [s.step.stepId, s.outcome.ok ? 'ok' : s.outcome.code])).toEqual([
        ['gather', 'ok'],
        ['back', 'ok'],
      ]);
    },
    60_000,
  );
});
