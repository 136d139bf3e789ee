import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutPlan, layoutWorldFolder } from '../../bench/fleet-layout.js';
import { readSaveFile } from '../../src/world/embedded/save-file.js';
import { prepareWorldFolder } from '../../src/world/embedded/world-folder.js';

/*
 * Issue 34, §2: the fleet bench's spread layout puts each bot at a home of its own, out of every other's sight (the
 * embedded server's view distance is 4 chunks), through a world folder the server reopens; each bot works beside
 * its home. (`npm run bench -- fleet --layout spread` runs it on the real server: 50 of 50 plans completed.)
 */

const VIEW_BLOCKS = 4 * 16;
const names = Array.from({ length: 23 }, (_, i) => `fleet_${i}`);

describe('the fleet bench’s spread layout', () => {
  it('saves every bot at its own home, two views apart, with the bench’s dirt, in a folder the server reopens', () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'verbtree-layout-')), 'world');
    try {
      expect(layoutWorldFolder('spread', folder, names, 'fleet.json')).toBe(folder);
      expect(prepareWorldFolder(folder, 'keep')).toEqual({ fresh: false });
      const save = readSaveFile(folder)!;
      expect(save.players.map((p) => p.username)).toEqual(names);
      expect(new Set(save.players.map((p) => p.uuid)).size).toBe(names.length);
      for (const player of save.players) expect(player.inventory).toEqual([{ slot: 36, name: 'dirt', count: 4 }]);
      for (const [i, a] of save.players.entries())
        for (const b of save.players.slice(i + 1)) {
          const apart = Math.max(Math.abs(a.position.x - b.position.x), Math.abs(a.position.z - b.position.z));
          expect(apart).toBeGreaterThan(2 * VIEW_BLOCKS);
        }
      // Each bot's plan walks, places and digs within a few blocks of its own home.
      for (const [i, player] of save.players.entries())
        for (const step of layoutPlan('spread', i, names.length)) {
          const args = step.args as { target?: { x: number; z: number }; position?: { x: number; z: number } };
          const at = args.target ?? args.position!;
          expect(Math.hypot(at.x - player.position.x, at.z - player.position.z)).toBeLessThan(8);
        }
    } finally {
      rmSync(join(folder, '..'), { recursive: true, force: true });
    }
  });

  it('the crowd needs no world folder: its bots spawn at the scenario’s spawn', () => {
    expect(layoutWorldFolder('crowd', '/nonexistent', names, 'fleet.json')).toBeNull();
  });
});
