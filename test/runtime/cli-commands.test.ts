import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { tempDir } from '../helpers/temp-dir.js';
import { describe, expect, test } from 'vitest';
import { lintCommand } from '../../src/cli/commands/lint.js';
import { treeCommand } from '../../src/cli/commands/tree.js';
import { CliUsageError } from '../../src/cli/io.js';
import { createBindingRegistry } from '../../src/runtime/index.js';

async function run(make: typeof lintCommand, treesDir: string, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  let exit = -1;
  const io = { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) };
  const program = new Command('verbtree').exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
  program.addCommand(
    make(
      () => ({ bindings: createBindingRegistry(), treePaths: [treesDir] }),
      io,
      (code) => (exit = code),
    ),
  );
  program.commands.forEach((c) => c.exitOverride().configureOutput(program.configureOutput()));
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CliUsageError) exit = 2;
    else if (error instanceof CommanderError) exit = error.exitCode;
    else throw error;
  }
  return { out: out.join('\n'), err: err.join('\n'), exit };
}

async function treesDir(files: Record<string, string>): Promise<string> {
  const dir = await tempDir('verbtree-trees-');
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe('verbtree lint', () => {
  test('exit 0 on clean trees, 1 listing every problem as file:line, 2 for a missing path', async () => {
    const clean = await treesDir({ 'go.mdsl': 'root { action [goto, $goal] }' });
    expect(await run(lintCommand, clean, ['lint'])).toMatchObject({ exit: 0, out: '✓ 1 tree file(s) clean' });
    const broken = await treesDir({
      'go.mdsl': 'root {\n  sequence {\n    action [gotoo, $goal]\n    condition [conected]\n  }\n}',
    });
    const result = await run(lintCommand, broken, ['lint']);
    expect(result.exit).toBe(1);
    expect(result.out.split('\n')).toEqual([
      `${join(broken, 'go.mdsl')}:3: unknown action "gotoo" (did you mean "goto"?)`,
      `${join(broken, 'go.mdsl')}:4: unknown condition "conected" (did you mean "connected"?)`,
      '✗ 2 problem(s) in 1 of 1 tree file(s)',
    ]);
    expect((await run(lintCommand, clean, ['lint', join(clean, 'nope')])).exit).toBe(2);
  });

  test('a symlink loop does not crash it and a symlink out of the folder is not followed; each is named', async () => {
    const outside = await treesDir({ 'secret.mdsl': 'root { action [nope_outside] }' });
    const dir = await treesDir({ 'go.mdsl': 'root { action [goto, $goal] }' });
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'sub', 'more.mdsl'), 'root { action [goto, $goal] }');
    await symlink(join(dir, 'loop.mdsl'), join(dir, 'loop.mdsl'));
    await symlink('..', join(dir, 'sub', 'up'));
    await symlink(dir, join(dir, 'again'));
    await symlink(join(outside, 'secret.mdsl'), join(dir, 'leak.mdsl'));
    await symlink(outside, join(dir, 'elsewhere'));
    await symlink(join(dir, 'go.mdsl'), join(dir, 'sub', 'alias.mdsl'));
    const result = await run(lintCommand, dir, ['lint']);
    expect(result.exit).toBe(1);
    expect(result.out).not.toContain('nope_outside');
    expect(result.out.split('\n')).toEqual([
      `${join(dir, 'elsewhere')}:1: cannot read: a symlink to ${outside}, outside ${dir}; not followed (copy the file in, or pass it as a path)`,
      `${join(dir, 'leak.mdsl')}:1: cannot read: a symlink to ${join(outside, 'secret.mdsl')}, outside ${dir}; not followed (copy the file in, or pass it as a path)`,
      `${join(dir, 'loop.mdsl')}:1: cannot read: a symlink loop; not followed`,
      '✗ 3 problem(s) in 3 of 6 tree file(s)',
    ]);
  });

  test('a 20,000-deep tree is a clear error with its line, not a stack overflow', async () => {
    const dir = await treesDir({
      'deep.mdsl': `root {\n${'sequence {\n'.repeat(20_000)}action [goto, $goal]\n${'}\n'.repeat(20_000)}}`,
    });
    const result = await run(lintCommand, dir, ['lint']);
    expect(result.exit).toBe(1);
    expect(result.out.split('\n')[0]).toBe(
      `${join(dir, 'deep.mdsl')}:201: nodes nest deeper than 200 levels here: split the tree with branch [name] into named roots or other files`,
    );
  });

  test('--help shows an example', async () => {
    const result = await run(lintCommand, '.', ['lint', '--help']);
    expect(result.out).toContain('$ verbtree lint trees/dig_block.mdsl');
  });
});

describe('verbtree tree show', () => {
  test("prints the tree as indented text, with a recorded run's node states", async () => {
    const dir = await treesDir({
      'fetch.mdsl':
        'root {\n  selector while(watchdog, "ttfa", 1500) {\n    action [goto, $goal]\n    action [goto_near, $goal, 3]\n  }\n}',
      'run.jsonl': [
        '{"nodePath":"fetch/selector","to":"running"}',
        '{"nodePath":"fetch/selector/0:action(goto)","to":"failed"}',
        '{"nodePath":"fetch/selector","to":"succeeded"}',
      ].join('\n'),
    });
    const shown = await run(treeCommand, dir, ['tree', 'show', 'fetch']);
    expect(shown.exit).toBe(0);
    expect(shown.out.split('\n').slice(1)).toEqual([
      '  root  :1',
      '    selector  {watchdog ttfa 1500ms}  :2',
      '      action [goto, $goal]  :3',
      '      action [goto_near, $goal, 3]  :4',
    ]);
    const replay = await run(treeCommand, dir, ['tree', 'show', 'fetch', '--run', join(dir, 'run.jsonl')]);
    expect(replay.out).toContain('selector  {watchdog ttfa 1500ms}  = succeeded  :2');
    expect(replay.out).toContain('action [goto, $goal]  = failed  :3');
    expect(replay.out).toContain('action [goto_near, $goal, 3]  = not reached  :4');
  });

  test('an unknown name is a usage error; trees that do not load exit 1', async () => {
    const dir = await treesDir({ 'fetch.mdsl': 'root { action [goto, $goal] }' });
    expect((await run(treeCommand, dir, ['tree', 'show', 'fetc'])).exit).toBe(2);
    const broken = await treesDir({ 'fetch.mdsl': 'root { action [gogo] }' });
    const result = await run(treeCommand, broken, ['tree', 'show', 'fetch']);
    expect(result.exit).toBe(1);
    expect(result.err).toContain('unknown action "gogo"');
  });
});
