import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/random.js';
import { type Mob, type MobPlayer, type MobTerrain, newMind, tickMob } from '../../src/world/mob-rules/index.js';

/** Grass at y=4 over stone; a hole dug at (0, 0) three cells deep (y 4, 3, 2) and closed again at y=4. */
const terrain: MobTerrain = {
  block: (x, y, z) => {
    if (x === 0 && z === 0 && (y === 3 || y === 2)) return 'air';
    return y === 4 ? 'dirt' : y < 4 ? 'stone' : 'air';
  },
};

const MIDNIGHT = 18000;

function hitsOnBotInHole(name: string, start: { x: number; z: number }, seed: number) {
  const bot: MobPlayer = { id: 7, position: { x: 0.5, y: 2, z: 0.5 }, targetable: true };
  const mob: Mob = { id: 1, name, position: { x: start.x + 0.5, y: 5, z: start.z + 0.5 } };
  const mind = newMind(mob.position);
  mind.target = bot.id;
  const random = mulberry32(seed);
  const hits: { tick: number; x: number; y: number; z: number }[] = [];
  for (let tick = 1; tick <= 600; tick++) {
    const world = { terrain, tick, timeOfDay: MIDNIGHT, players: [bot], random };
    for (const event of tickMob(mob, mind, world)) if (event.kind === 'hit') hits.push({ tick, ...mob.position });
  }
  return { hits, end: { ...mob.position } };
}

describe('a closed hole: no melee through its cover', () => {
  for (const name of ['spider', 'zombie']) {
    for (const start of [
      { x: 0, z: 0 },
      { x: 3, z: 1 },
      { x: 1, z: 0 },
    ]) {
      it(`a ${name} from ${start.x},${start.z} never hits the bot under the cover`, () => {
        for (const seed of [1, 2, 3]) {
          const { hits, end } = hitsOnBotInHole(name, start, seed);
          expect(hits, `seed ${seed}, ended at ${JSON.stringify(end)}`).toEqual([]);
        }
      });
    }
  }
});
