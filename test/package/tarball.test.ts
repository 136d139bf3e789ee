import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

const root = join(import.meta.dirname, '..', '..');

/** A user's program on the packed package: public entries only, a plan verified on SimWorld. */
const CONSUMER = `
import { assembleExecutor, systemClock, type PlanResult } from 'verbtree';
import { createDefaultRegistry } from 'verbtree/capabilities';
import { SimWorld } from 'verbtree/worlds';
import { arbitraryOutputFor } from 'verbtree/testing';

const world = SimWorld.create({ clock: systemClock, inventory: { oak_log: 1 } });
const { executor, runner } = await assembleExecutor({ registry: createDefaultRegistry(), world, clock: systemClock });
const result: PlanResult = await executor.run({ planId: 'p', intentId: 'i', steps: [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }] }).result;
await runner.shutdown();
void arbitraryOutputFor;
console.log(JSON.stringify({ ok: result.ok, planks: world.inventory().oak_planks ?? 0, state: executor.state() }));
`;

describe('the package as a user installs it', () => {
  it('npm pack holds what a consumer needs: its entries resolve, its types compile in a strict project, and a plan runs on SimWorld', async () => {
    const dir = await tempDir('verbtree-pack-');
    // dist/ is built by npm ci (prepare); packing must not build again.
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as { filename: string; files: { path: string }[] }[];
    const files = packed[0]!.files.map((f) => f.path);
    for (const needed of ['LICENSE', 'README.md', 'bin/verbtree.js', 'dist/src/index.js', 'dist/src/index.d.ts', 'trees/navigate.mdsl', 'capabilities/navigate/index.ts']) expect(files, needed).toContain(needed);
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);

    // The consumer: verbtree unpacked from the tarball; its dependencies as npm would have installed them.
    const consumer = join(dir, 'consumer');
    const modules = join(consumer, 'node_modules');
    mkdirSync(join(modules, 'verbtree'), { recursive: true });
    execFileSync('tar', ['-xzf', join(dir, packed[0]!.filename), '-C', join(modules, 'verbtree'), '--strip-components=1']);
    for (const name of readdirSync(join(root, 'node_modules'))) {
      if (name !== 'verbtree' && !name.startsWith('.')) symlinkSync(join(root, 'node_modules', name), join(modules, name));
    }
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'my-bot', type: 'module', private: true }));
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: 'out', types: ['node'] }, include: ['index.ts'] }),
    );
    writeFileSync(join(consumer, 'index.ts'), CONSUMER);
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer], { cwd: consumer, encoding: 'utf8' });
    const printed = execFileSync(process.execPath, [join(consumer, 'out', 'index.js')], { cwd: consumer, encoding: 'utf8' });
    expect(JSON.parse(printed.trim().split('\n').at(-1)!)).toEqual({ ok: true, planks: 4, state: 'COMPLETED' });
  }, 120_000);
});
