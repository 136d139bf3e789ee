import { describe, expect, it } from 'vitest';
import { WorldError } from '../../src/contracts/world.js';
import { ATTACK_DAMAGE, MOB_HEALTH } from '../../src/world/actuator-rules.js';
import { botOf } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { eventually } from '../helpers/eventually.js';

// Targets that stand where they are put (ai: false): a wandering cow or a zombie walking up would race the hits and
// the out-of-reach refusal this file is about (a fight with a mob that moves is capabilities/attack_entity's).
const suite = embeddedSuite({
  mobs: [
    { name: 'cow', x: 2, y: 5, z: 0, ai: false },
    { name: 'zombie', x: -12, y: 5, z: 0, ai: false },
  ],
});

describe('attack on the embedded server', () => {
  it("a scenario's mobs stand in the world; hits take the server's health down until the mob is gone, for the server and the client", async () => {
    const bot = await suite.world.connectBot('hunter');
    const seen = await bot.observe({ entities: { names: ['cow', 'zombie'], within: 64 } });
    expect(seen.entities!.map((e) => [e.name, e.health])).toEqual(
      expect.arrayContaining([
        ['cow', MOB_HEALTH],
        ['zombie', MOB_HEALTH],
      ]),
    );
    const cow = seen.entities!.find((e) => e.name === 'cow')!;
    expect(await eventually(() => botOf(bot).entities[cow.id] !== undefined)).toBe(true);
    // A hit knocks the cow back: walk up to it again before the next one.
    const hit = async () => {
      const at = botOf(bot).entities[cow.id]!.position;
      if (botOf(bot).entity.position.distanceTo(at) > 2)
        await bot.goto({
          kind: 'near',
          x: Math.floor(at.x),
          y: Math.floor(bot.position().y),
          z: Math.floor(at.z),
          range: 1,
        });
      await bot.attack(cow.id);
    };
    await hit();
    expect((await bot.observe({ entities: { ids: [cow.id] } })).entities).toMatchObject([
      { id: cow.id, health: MOB_HEALTH - ATTACK_DAMAGE },
    ]);
    for (let n = 1; n < MOB_HEALTH / ATTACK_DAMAGE; n++) await hit();
    expect((await bot.observe({ entities: { ids: [cow.id] } })).entities).toEqual([]);
    expect(await eventually(() => botOf(bot).entities[cow.id] === undefined)).toBe(true);
    const gone = await bot.attack(cow.id).then(
      () => null,
      (error: unknown) => error,
    );
    expect(gone).toBeInstanceOf(WorldError);
    expect((gone as WorldError).code).toBe('precondition_missing');
  }, 60_000);

  it('refuses a mob out of reach, naming the distance', async () => {
    const bot = await suite.world.connectBot('shorty');
    const [zombie] = (await bot.observe({ entities: { names: ['zombie'], within: 64 } })).entities!;
    expect(await eventually(() => botOf(bot).entities[zombie!.id] !== undefined)).toBe(true);
    const refused = await bot.attack(zombie!.id).then(
      () => null,
      (error: unknown) => error,
    );
    expect((refused as WorldError).code).toBe('precondition_missing');
    expect((refused as WorldError).message).toMatch(/zombie \(entity \d+\) is 1\d\.\d blocks away, reach is 3/);
  }, 30_000);
});
