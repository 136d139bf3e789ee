import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock/index.js';
import type { Death } from '../../src/contracts/world.js';
import { RESPAWN_AFTER_MS } from '../../src/world/sim/death.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { type Outcome, settle, track } from '../../src/world/sim/settle.js';

const codeOf = (outcome: Outcome) => (outcome.state === 'rejected' ? outcome.code : outcome.state);

// Issue 30: a SimWorld bot at 0 health is dead, as on a server: it stops acting, then respawns at its spawn.
const SPAWN = { x: 0, y: 0, z: 0 };

function world(clock: ManualClock, keepInventory?: boolean) {
  return SimWorld.create({
    clock,
    ground: { radius: 40 },
    spawn: SPAWN,
    inventory: { cobblestone: 5, iron_helmet: 1 },
    ...(keepInventory === undefined ? {} : { keepInventory }),
  });
}

describe('SimWorld: a death', () => {
  it('a blow to 0 mid-walk: `died` once (health before, cause, where), the walk fails `died`, a command at 0 is refused, then a respawn at the spawn with 20 health and the pack on the ground', async () => {
    const clock = new ManualClock();
    const sim = world(clock);
    await settle(clock, sim.equip('iron_helmet', 'head'));
    const deaths: Death[] = [];
    sim.events.on('died', (death) => deaths.push(death));
    const walk = track(sim.goto({ kind: 'block', x: 30, y: 0, z: 0 }));
    await clock.advance(1000);
    const diedAt = { ...sim.position() };
    sim.setHealth(4).setHealth(0, 'spider');
    await clock.advance(0);
    expect(codeOf(walk.outcome)).toBe('died');
    expect(deaths).toEqual([{ healthBefore: 4, cause: 'spider', position: diedAt }]);
    expect(sim.health()).toBe(0);

    const atZero = await settle(clock, sim.place({ x: 1, y: 0, z: 1 }, 'cobblestone'), 0);
    expect(codeOf(atZero)).toBe('died');
    expect(sim.blockAt({ x: 1, y: 0, z: 1 })!.name).toBe('air');

    await clock.advance(RESPAWN_AFTER_MS);
    expect(sim.health()).toBe(20);
    expect(sim.food()).toBe(20);
    expect(sim.position()).toEqual({ x: 0.5, y: 0, z: 0.5 });
    expect(sim.inventory()).toEqual({});
    expect(sim.worn()).toEqual([]);
    const dropped = sim.entities().filter((e) => e.kind === 'item');
    expect(dropped.map((e) => [e.item, e.position])).toEqual([
      [{ name: 'cobblestone', count: 5 }, diedAt],
      [{ name: 'iron_helmet', count: 1 }, diedAt],
    ]);
    expect(codeOf(await settle(clock, sim.look({ x: 3, y: 1, z: 0 })))).toBe('ok');
    expect(deaths).toHaveLength(1);
  });

  it('with keepInventory the pack stays with the bot', async () => {
    const clock = new ManualClock();
    const sim = world(clock, true);
    sim.setHealth(0);
    await clock.advance(RESPAWN_AFTER_MS);
    expect(sim.inventory()).toEqual({ cobblestone: 5, iron_helmet: 1 });
  });

  it('over generated blows: one `died` for each fall to 0, and while dead every command fails `died`', async () => {
    const blow = fc.record({ damage: fc.integer({ min: 1, max: 25 }), waitMs: fc.integer({ min: 0, max: 200 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(blow, { minLength: 1, maxLength: 30 }), async (blows) => {
        const clock = new ManualClock();
        const sim = world(clock);
        let deaths = 0;
        sim.events.on('died', () => deaths++);
        let falls = 0;
        for (const { damage, waitMs } of blows) {
          const before = sim.health();
          sim.setHealth(before - damage, 'zombie');
          if (before > 0 && sim.health() === 0) falls++;
          if (sim.health() === 0) {
            const refused = await settle(clock, sim.move('forward', 100), 0);
            expect(codeOf(refused)).toBe('died');
          }
          await clock.advance(waitMs);
        }
        expect(deaths).toBe(falls);
        const acted = sim.actuatorLog.filter((entry) => entry.outcome === 'ok');
        expect(acted).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});
