import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

/*
 * Two islands, each in a moat three blocks wide that rings it (no way around), on superflat ground (grass at y=4,
 * bots stand at y=5), the water up to y=4, level with the ground: a bot walks (drops) in from anywhere. The east
 * island's top is level with the water too (one block above the water cell a swimmer floats in): the game lets a
 * swimmer climb out onto it. The west island rises in sheer walls two blocks higher (its top at y=6): no swimmer
 * gets out there, and a bot that swam in would never leave the moat again.
 */
const moat = (x0: number, islandTop: number) => [
  { from: { x: x0, y: 1, z: -4 }, to: { x: x0 + 8, y: 4, z: 4 }, block: 'water' },
  { from: { x: x0 + 3, y: 1, z: -1 }, to: { x: x0 + 5, y: islandTop - 1, z: 1 }, block: 'dirt' },
  { from: { x: x0 + 3, y: islandTop, z: -1 }, to: { x: x0 + 5, y: islandTop, z: 1 }, block: 'grass_block' },
];
const suite = embeddedSuite({ fills: [...moat(6, 4), ...moat(-14, 6)] });

const navigate = (stepId: string, target: Record<string, unknown>) => ({ stepId, type: 'navigate', args: { target } });
const cellOf = (p: { x: number; y: number; z: number }) => [Math.floor(p.x), Math.floor(p.y), Math.floor(p.z)];

describe('navigate across water on the embedded server', () => {
  it('swims across a moat and climbs out onto the island, verified by the position the server holds', async () => {
    const { result } = await suite.run('swimmer', [navigate('island', { kind: 'block', x: 10, y: 5, z: 0 })]);
    expect(result.steps[0]!.outcome).toEqual({ ok: true });
    expect(cellOf(suite.server.player('swimmer')!.position)).toEqual([10, 5, 0]);
  }, 60_000);

  it('an island in a moat under sheer walls fails explicitly, naming the water, without entering it or digging', async () => {
    const { result, events } = await suite.run('stranded', [navigate('island', { kind: 'block', x: -10, y: 7, z: 0 })]);
    const step = result.steps.find((s) => s.step.stepId === 'island')!;
    expect(step.outcome.ok).toBe(false);
    const detail = step.outcome.ok ? '' : step.outcome.detail;
    expect(detail).toMatch(/no way out of the water at -?\d+,\d+,-?\d+/);
    // The bot stayed on dry ground at its side of the moat: not in the water, not under it.
    const [, y] = cellOf(suite.server.player('stranded')!.position);
    expect(y).toBe(5);
    expect(suite.server.player('stranded')!.air).toBe(300);
    // What bounds the time to that truth: no dig, no helper step, and at most one retry of the path ruling.
    expect(result.steps.map((s) => s.step.stepId)).toEqual(['island']);
    expect(events.some((e) => e.type === 'step.started' && e.verb === 'dig_block')).toBe(false);
    expect(step.attempts).toBeLessThanOrEqual(2);
  }, 90_000);
});
