import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutHome, layoutPlan, layoutWorldFolder } from '../../bench/fleet-layout.js';
import { plannedWalks } from '../../bench/fleet-paths.js';
import { readSaveFile } from '../../src/world/embedded/save-file.js';
import { prepareWorldFolder } from '../../src/world/embedded/world-folder.js';
import type { Step } from '../../bench/embedded-support.js';

/*
 * Issue 34, §2: the fleet bench's layouts put each bot at a home of its own through a world folder the server reopens,
 * and each bot works beside its home: the spread's homes out of every other's sight (the embedded server's view
 * distance is 4 chunks), the dense grid's in every other's (its entity view is 150 blocks), so that a bot's
 * work is the same at every size and what grows is only the crowd; the crowd's bots all spawn at the spawn and walk to
 * their spots. (`npm run bench -- fleet --layout crowd,dense,spread` runs them on the real server.)
 */

const VIEW_BLOCKS = 4 * 16;
/** How far the embedded server (flying-squid) shows a player the others: entity.viewDistance. */
const ENTITY_VIEW = 150;
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

  it('the crowd needs no world folder: its bots spawn at the scenario’s spawn and walk to their spots', () => {
    expect(layoutWorldFolder('crowd', '/nonexistent', names, 'fleet.json')).toBeNull();
    // Its walks lengthen with the fleet, which is why the dense layout exists.
    const meanWalk = (bots: number) => {
      const walks = plannedWalks('crowd', bots);
      return walks.reduce((sum, w) => sum + w, 0) / walks.length;
    };
    expect(meanWalk(300)).toBeGreaterThan(3 * meanWalk(50));
  });

  it('the dense grid: every bot in every other’s view, each walking the same 4 blocks at every size', () => {
    for (const bots of [50, 150, 300]) {
      const homes = Array.from({ length: bots }, (_, i) => layoutHome('dense', i, bots));
      for (const [i, a] of homes.entries())
        for (const b of homes.slice(i + 1)) expect(Math.hypot(a.x - b.x, a.z - b.z)).toBeLessThan(ENTITY_VIEW);
      const cells = new Set(homes.map((h) => `${Math.floor(h.x)},${Math.floor(h.z)}`));
      expect(cells.size).toBe(bots);
      const walked = new Set<string>();
      const placed = new Set<string>();
      for (const [i, h] of homes.entries()) {
        const [walk, place, dig] = layoutPlan('dense', i, bots) as [Step, Step, Step];
        const to = (walk.args as { target: { x: number; z: number } }).target;
        expect([to.x - Math.floor(h.x), to.z - Math.floor(h.z)]).toEqual([4, 0]);
        for (let x = Math.floor(h.x); x <= to.x; x++) walked.add(`${x},${to.z}`);
        const cell = (place.args as { position: { x: number; z: number } }).position;
        expect(dig.args).toMatchObject({ position: cell });
        placed.add(`${cell.x},${cell.z}`);
      }
      // No bot's block lands where a bot stands or walks, and no two bots place in one cell.
      expect(placed.size).toBe(bots);
      for (const cell of placed) expect(walked.has(cell)).toBe(false);
    }
  });

  it('the dense grid’s save holds every bot at its home', () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'verbtree-layout-')), 'world');
    try {
      layoutWorldFolder('dense', folder, names, 'fleet.json');
      const save = readSaveFile(folder)!;
      expect(save.players.map((p) => p.position)).toEqual(names.map((_, i) => layoutHome('dense', i, names.length)));
    } finally {
      rmSync(join(folder, '..'), { recursive: true, force: true });
    }
  });
});
