import { describe, expect, it } from 'vitest';
import { MAX_AIR, breathe, eyesInWater } from '../../src/world/breath-rules.js';

/** Ticks under water from full air; the damage dealt on each tick that deals any. */
function drown(ticks: number): { air: number; hits: number[] } {
  let air = MAX_AIR;
  const hits: number[] = [];
  for (let tick = 1; tick <= ticks; tick++) {
    const next = breathe(air, true);
    air = next.air;
    if (next.damage > 0) hits.push(tick);
  }
  return { air, hits };
}

describe('breath rules (vanilla LivingEntity.baseTick)', () => {
  it('300 ticks of air, then 2 damage every 20 ticks from tick 320', () => {
    expect(drown(300)).toEqual({ air: 0, hits: [] });
    expect(drown(319).hits).toEqual([]);
    expect(drown(400).hits).toEqual([320, 340, 360, 380, 400]);
    expect(breathe(-19, true)).toEqual({ air: 0, damage: 2 });
  });

  it('out of water the air refills 4 a tick, up to 300', () => {
    expect(breathe(0, false)).toEqual({ air: 4, damage: 0 });
    expect(breathe(298, false)).toEqual({ air: MAX_AIR, damage: 0 });
  });

  it('eyes are in water below its surface (8/9 of a source block), or anywhere with water above', () => {
    expect(eyesInWater('water', 0, false, 6.62, 6)).toBe(true);
    expect(eyesInWater('water', 0, false, 6.9, 6)).toBe(false);
    expect(eyesInWater('water', 0, true, 6.95, 6)).toBe(true);
    expect(eyesInWater('water', 6, false, 6.62, 6)).toBe(false);
    expect(eyesInWater('seagrass', 0, false, 6.1, 6)).toBe(true);
    expect(eyesInWater('bubble_column', 0, true, 6.1, 6)).toBe(false);
    expect(eyesInWater('air', 0, true, 6.1, 6)).toBe(false);
  });
});
