import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EntityInfo, EntityKind } from '../../../src/contracts/world.js';
import { chooseHunt, HUNT_CLEAR, HUNT_RADIUS, PREY, type HuntSight } from '../../../src/executor/safety/hunt.js';

const at = { x: 0.5, y: 5, z: 0.5 };
let nextId = 1;
const mob = (name: string, kind: EntityKind, x: number, z = 0): EntityInfo => ({
  id: nextId++,
  name,
  kind,
  position: { x: at.x + x, y: at.y, z: at.z + z },
});
const sight = (entities: EntityInfo[], inventory: Record<string, number> = {}): HuntSight => ({
  food: 3,
  position: at,
  inventory,
  entities,
  need: 'hungry 3 of 20',
});

describe('the hunt: what a hungry bot with nothing to eat does', () => {
  it('hunts only animals whose loot always holds a food eaten unasked: a cow, a pig, a sheep (not a chicken)', () => {
    expect([...PREY].sort()).toEqual(['cow', 'pig', 'sheep']);
  });

  it('hunts the cow nearby, saying why', () => {
    const cow = mob('cow', 'passive', 9);
    expect(chooseHunt(sight([cow]))).toEqual({
      kind: 'hunt',
      prey: cow,
      distance: 9,
      reason: 'hunt: hungry 3 of 20, nothing to eat, cow 9 blocks off',
    });
  });

  it('eats what the pack holds instead; rotten flesh or a raw chicken is not eaten unasked, so the bot hunts', () => {
    const cow = mob('cow', 'passive', 9);
    expect(chooseHunt(sight([cow], { bread: 1 })).kind).toBe('eat');
    expect(chooseHunt(sight([cow], { rotten_flesh: 3, chicken: 1, dirt: 4 })).kind).toBe('hunt');
  });

  it('no hunt with a hostile near the bot or near the animal, nor with no animal within reach; the reason says which', () => {
    const cow = mob('cow', 'passive', 9);
    expect(chooseHunt(sight([cow, mob('zombie', 'hostile', -12)]))).toEqual({
      kind: 'none',
      reason: 'hungry 3 of 20, nothing to eat, cow 9 blocks off, but a zombie is about: no hunt',
    });
    expect(chooseHunt(sight([cow, mob('skeleton', 'hostile', 9 + 15)])).kind).toBe('none');
    expect(chooseHunt(sight([mob('cow', 'passive', HUNT_RADIUS + 1), mob('chicken', 'passive', 3)]))).toEqual({
      kind: 'none',
      reason: `hungry 3 of 20, nothing to eat, no animal within ${HUNT_RADIUS} blocks to hunt`,
    });
  });

  it('over generated fields: hunts exactly when prey is within reach and no hostile is about, and then the nearest prey', () => {
    const entity = fc.record({
      name: fc.constantFrom('cow', 'pig', 'sheep', 'chicken', 'zombie', 'skeleton', 'creeper', 'item'),
      x: fc.integer({ min: -40, max: 40 }),
      z: fc.integer({ min: -40, max: 40 }),
    });
    fc.assert(
      fc.property(fc.array(entity, { maxLength: 8 }), fc.boolean(), (drawn, fed) => {
        const kindOf = (name: string): EntityKind =>
          name === 'item' ? 'item' : ['zombie', 'skeleton', 'creeper'].includes(name) ? 'hostile' : 'passive';
        const entities = drawn.map(({ name, x, z }) => mob(name, kindOf(name), x, z));
        const choice = chooseHunt(sight(entities, fed ? { cooked_beef: 1 } : {}));
        const off = (e: EntityInfo, from = at) =>
          Math.hypot(e.position.x - from.x, e.position.y - from.y, e.position.z - from.z);
        const prey = entities.filter((e) => PREY.has(e.name) && off(e) <= HUNT_RADIUS);
        const nearest = prey.sort((a, b) => off(a) - off(b) || a.id - b.id)[0];
        const hostileNear =
          nearest !== undefined &&
          entities.some(
            (e) => e.kind === 'hostile' && (off(e) <= HUNT_CLEAR || off(e, nearest.position) <= HUNT_CLEAR),
          );
        if (fed) expect(choice.kind).toBe('eat');
        else if (!nearest || hostileNear) expect(choice.kind).toBe('none');
        else expect(choice).toMatchObject({ kind: 'hunt', prey: nearest });
      }),
      { numRuns: 500 },
    );
  });
});
