import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDefaultRegistry } from '../../capabilities/index.js';
import navigate from '../../capabilities/navigate/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { assembleExecutor, builtinTreePaths, CapabilityTreeError, defineCapability } from '../../src/index.js';
import { SimWorld } from '../../src/worlds.js';
import { harness, plan } from '../helpers/executor.js';
import { tempDir } from '../helpers/temp-dir.js';

const hop = defineCapability({
  name: 'hop',
  version: '1.0.0',
  description: "walks, from the user's own tree",
  inputSchema: z.strictObject({ to: navigate.inputSchema.shape.target }),
  safetyLevel: 'safe',
  expectedDurationMs: 5_000,
  retryableCodes: ['no_path'],
  preconds: [],
  effects: [],
  moves: true,
  tree: 'hop',
  guard: () => ({ ok: true }),
  expect: (_pre, { to }) => [{ kind: 'position', goal: to }],
});

describe("assembleExecutor with the user's tree folders", () => {
  it('loads them beside the built-in trees and runs a capability from them', async () => {
    const dir = await tempDir('verbtree-user-trees-');
    await writeFile(join(dir, 'hop.mdsl'), 'root {\n  action [goto, $to]\n}\n');
    const h = await harness({}, { registry: createDefaultRegistry().register(hop), extraTreePaths: [dir] });
    expect(h.assembly.catalog.names()).toEqual(expect.arrayContaining(['hop', 'navigate', 'dig_block']));
    const result = await h.run(
      plan({ stepId: 'h', type: 'hop', args: { to: { kind: 'near', x: 8, y: 0, z: 0, range: 1 } } }),
    );
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
  });

  it('names a capability whose tree is in no folder, and a $name its schema lacks, when assembling', async () => {
    const clock = new ManualClock();
    const world = SimWorld.create({ clock });
    await expect(assembleExecutor({ registry: createDefaultRegistry().register(hop), world, clock })).rejects.toThrow(
      new CapabilityTreeError(
        `hop@1.0.0: its tree "hop" is defined in no tree folder; add hop.mdsl to one of: ${builtinTreePaths().join(', ')}`,
      ),
    );
    const dir = await tempDir('verbtree-user-trees-');
    await writeFile(join(dir, 'hop.mdsl'), 'root {\n  action [goto, $target]\n}\n');
    await expect(
      assembleExecutor({ registry: createDefaultRegistry().register(hop), world, clock, extraTreePaths: [dir] }),
    ).rejects.toThrow(/hop\.mdsl:2: "\$target" is not an argument of hop@1\.0\.0 \(its arguments: to\)/);
  });
});
