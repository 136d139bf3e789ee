import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { match } from '../helpers/matchers.js';

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

interface Packed {
  dir: string;
  files: string[];
  /** A fresh project folder with verbtree installed from the tarball (its dependencies as npm would have put them). */
  project(name: string, without?: readonly string[]): string;
}

function pack(): Packed {
  // One tarball for the file's tests (packing takes seconds), removed after them.
  const dir = mkdtempSync(join(tmpdir(), 'verbtree-pack-'));
  // dist/ is built by npm ci (prepare); packing must not build again.
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as { filename: string; files: { path: string }[] }[];
  return {
    dir,
    files: packed[0]!.files.map((f) => f.path),
    project(name, without: readonly string[] = []) {
      const folder = join(dir, name);
      const modules = join(folder, 'node_modules');
      mkdirSync(join(modules, 'verbtree'), { recursive: true });
      execFileSync('tar', [
        '-xzf',
        join(dir, packed[0]!.filename),
        '-C',
        join(modules, 'verbtree'),
        '--strip-components=1',
      ]);
      for (const dep of readdirSync(join(root, 'node_modules'))) {
        if (dep !== 'verbtree' && !dep.startsWith('.') && !without.includes(dep))
          symlinkSync(join(root, 'node_modules', dep), join(modules, dep));
      }
      return folder;
    },
  };
}

describe('the package as a user installs it', () => {
  let packed: Packed;
  beforeAll(() => {
    packed = pack();
  }, 60_000);
  afterAll(() => rmSync(packed.dir, { recursive: true, force: true }));

  it('npm pack holds what a consumer needs and nothing of our own tests or sources', () => {
    for (const needed of [
      'LICENSE',
      'README.md',
      'bin/verbtree.js',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'trees/navigate.mdsl',
      'capabilities/navigate/index.ts',
      'dist/monitor/index.html',
    ])
      expect(packed.files, needed).toContain(needed);
    expect(packed.files.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);
    // Nor what installing examples/user-project in the checkout (its README's first step) leaves there.
    expect(packed.files.filter((f) => f.includes('node_modules/') || f.endsWith('package-lock.json'))).toEqual([]);
  });

  it('a strict TypeScript program on its public entries compiles and runs a plan verified on SimWorld', () => {
    const consumer = packed.project('consumer');
    // The shipped capability sources are templates: they import verbtree by its name, never its private paths.
    const shipped = packed.files.filter(
      (f) => f.startsWith('capabilities/') && f.endsWith('.ts') && !f.endsWith('.test.ts'),
    );
    expect(shipped.length).toBeGreaterThan(20);
    for (const file of shipped)
      expect(readFileSync(join(consumer, 'node_modules', 'verbtree', file), 'utf8'), file).not.toMatch(
        /from '(\.\.\/)+src\//,
      );
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'my-bot', type: 'module', private: true }));
    writeFileSync(join(consumer, 'index.ts'), CONSUMER);
    // Checking every library's types too (skipLibCheck false): no entry but verbtree/mineflayer (a mineflayer
    // plugin, which names mineflayer's types) leaks mineflayer's dependencies' typings, which have errors of their own.
    writeFileSync(
      join(consumer, 'strict.ts'),
      "import { assembleExecutor, defineCapability } from 'verbtree';\nimport { createDefaultRegistry } from 'verbtree/capabilities';\nimport { SimWorld, simWorldFromScenario } from 'verbtree/sim';\nimport { arbitraryOutputFor } from 'verbtree/testing';\nimport { MineflayerWorld, startEmbeddedWorld, type BotHandle } from 'verbtree/worlds';\nexport const used = [assembleExecutor, defineCapability, createDefaultRegistry, SimWorld, simWorldFromScenario, arbitraryOutputFor, MineflayerWorld, startEmbeddedWorld];\nexport const name = (world: MineflayerWorld<BotHandle>): string => world.bot.username;\n",
    );
    // One compilation of both files (tsc's start and its reading of every library's types are most of its time):
    // strict.ts reaches every public entry, so the libraries checked are those index.ts reaches and more, and
    // index.ts compiling with skipLibCheck false compiles with it true.
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          outDir: 'out',
          types: ['node'],
        },
        include: ['index.ts', 'strict.ts'],
      }),
    );
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer], {
      cwd: consumer,
      encoding: 'utf8',
    });
    const printed = execFileSync(process.execPath, [join(consumer, 'out', 'index.js')], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(JSON.parse(printed.trim().split('\n').at(-1)!)).toEqual({ ok: true, planks: 4, state: 'COMPLETED' });
  }, 60_000);

  it('examples/user-project: its own verb and its navigate@2.0.0 are linted, validated, exported as JSON Schema and run by the installed CLI, and its property test passes', () => {
    const project = packed.project('user-project');
    // The folder as a user gets it, without what installing it in the checkout left there (its own verbtree is a link).
    cpSync(join(root, 'examples', 'user-project'), project, {
      recursive: true,
      filter: (path) => !/[/\\](node_modules|package-lock\.json)$/.test(path),
    });
    const verbtree = (...args: string[]) =>
      execFileSync(process.execPath, [join(project, 'node_modules', 'verbtree', 'bin', 'verbtree.js'), ...args], {
        cwd: join(project, 'plans'),
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
    expect(verbtree('lint')).toMatch(/✓ \d+ tree file\(s\) clean/);
    // navigate pinned by range: ^1 the built-in, ^2 the project's own second version.
    expect(verbtree('validate', 'greet.plan.json')).toContain('(navigate@1.0.0, wave@1.0.0, navigate@2.0.0)');
    const schemas = JSON.parse(verbtree('registry', '--schema')) as { name: string }[] | Record<string, unknown>;
    expect(JSON.stringify(schemas)).toContain('"spot"');
    const run = verbtree('run', 'greet.plan.json');
    expect(run).toContain('✓ plan greet succeeded');
    // Its own property test (node's test runner, verbtree/testing's checkCapability) passes as installed.
    const tested = execFileSync(process.execPath, ['--test', 'test/'], { cwd: project, encoding: 'utf8' });
    expect(tested).toMatch(/# pass 1\n# fail 0/);
  }, 60_000);

  it('installed without its optional packages (npm install --omit=optional): SimWorld runs; the journal and the embedded world name what to add', () => {
    const project = packed.project('lean', ['better-sqlite3', 'flying-squid', 'prismarine-viewer']);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'lean-bot', type: 'module', private: true }));
    const verbtree = (...args: string[]) => {
      try {
        return {
          code: 0,
          out: execFileSync(
            process.execPath,
            [join(project, 'node_modules', 'verbtree', 'bin', 'verbtree.js'), ...args],
            { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
          ),
          err: '',
        };
      } catch (error) {
        const failed = error as { status: number; stdout: string; stderr: string };
        return { code: failed.status, out: failed.stdout, err: failed.stderr };
      }
    };
    const plan = join(root, 'examples', 'walk.plan.json');
    expect(verbtree('run', plan, '--world', 'sim')).toMatchObject({
      code: 0,
      out: match.stringContaining('✓ plan walk succeeded'),
    });
    const journaled = verbtree('run', plan, '--world', 'sim', '--journal', join(project, 'j.db'));
    expect(journaled.code).toBe(2);
    expect(journaled.err).toContain(
      'needs the package better-sqlite3, which is not installed: npm install better-sqlite3',
    );
    const embedded = verbtree('run', plan, '--world', 'embedded');
    expect(embedded.code).toBe(2);
    expect(embedded.err).toContain('needs the package flying-squid, which is not installed: npm install flying-squid');
    expect(embedded.err).not.toMatch(/\n\s+at /);
  }, 60_000);
});
