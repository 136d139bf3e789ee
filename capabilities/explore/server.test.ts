import { describe, expect, it } from 'vitest';
import { survivalTerrain } from '../../src/world/terrain/survival-terrain.js';
import { embeddedSuite } from '../../test/helpers/embedded.js';

const SEED = 7;
const suite = embeddedSuite({ terrain: { kind: 'survival', seed: SEED } });
const SIGHT = 12;

/** The iron ore cells with a face in the open within `r` of a point, as the generated terrain holds them. */
function ironInOpen(at: { x: number; y: number; z: number }, r: number): { x: number; y: number; z: number }[] {
  const t = survivalTerrain(SEED);
  const open = (x: number, y: number, z: number) => t.blockAt(x, y, z) === 'air';
  const cells = [];
  for (let x = Math.floor(at.x) - r; x <= at.x + r; x++)
    for (let z = Math.floor(at.z) - r; z <= at.z + r; z++)
      for (let y = Math.floor(at.y) - r; y <= at.y + r; y++) {
        if (t.blockAt(x, y, z) !== 'iron_ore' || Math.hypot(x - at.x, y - at.y, z - at.z) > r) continue;
        if (
          open(x + 1, y, z) ||
          open(x - 1, y, z) ||
          open(x, y + 1, z) ||
          open(x, y - 1, z) ||
          open(x, y, z + 1) ||
          open(x, y, z - 1)
        )
          cells.push({ x, y, z });
      }
  return cells;
}

describe('explore on the embedded server, on generated terrain', () => {
  it('walks out from the spawn until iron ore is in sight, as the server holds the world and the bot', async () => {
    const t = survivalTerrain(SEED);
    expect(ironInOpen(t.spawn, SIGHT), 'no iron in sight at the spawn: the test needs a walk').toEqual([]);
    const { result } = await suite.run('scout', [
      { stepId: 'look', type: 'explore', args: { block: '#iron_ores', sight: SIGHT, radius: 64 } },
    ]);
    expect(result.ok, JSON.stringify(result.steps.map((s) => s.outcome))).toBe(true);
    const where = suite.server.player('scout')!.position;
    const seen = ironInOpen(where, SIGHT + 1);
    expect(seen.length).toBeGreaterThan(0);
    expect(await suite.server.blockAt(seen[0]!)).toBe('iron_ore');
  });
});
