import { describe, expect, it } from 'vitest';
import { judgeStep, observation } from '../../src/testing/index.js';
import guardArea from './index.js';

const zombie = (id: number, x: number) => ({ id, name: 'zombie', position: { x, y: 0, z: 0.5 }, health: 20 });

describe('guard_area acceptance', () => {
  it('ok when no hostile is inside the radius and the bot stands at its post; one outside does not matter', () => {
    const args = guardArea.inputSchema.parse({ radius: 8, forMs: 10_000 });
    const pre = observation({ position: { x: 0.5, y: 0, z: 0.5 }, entities: [zombie(1, 4.5), zombie(2, 30.5)] });
    expect(
      judgeStep(guardArea, pre, observation({ position: { x: 1.5, y: 0, z: 0.5 }, entities: [zombie(2, 30.5)] }), args)
        .ok,
    ).toBe(true);
    const stillThere = judgeStep(
      guardArea,
      pre,
      observation({ position: { x: 1.5, y: 0, z: 0.5 }, entities: [zombie(1, 5.5)] }),
      args,
    );
    expect(stillThere.ok).toBe(false);
    const wandered = judgeStep(
      guardArea,
      pre,
      observation({ position: { x: 12.5, y: 0, z: 0.5 }, entities: [] }),
      args,
    );
    expect(wandered.ok).toBe(false);
  });
});
