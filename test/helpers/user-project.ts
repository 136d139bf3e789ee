import { builtinCapabilities } from '../../capabilities/index.js';
import { readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/main.js';
import { tempDir } from './temp-dir.js';

const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url));

/** The user's own verb, written as a user writes it: examples/user-project's module, importing only zod. */
export const WAVE_MODULE = readFileSync(
  fileURLToPath(new URL('../../examples/user-project/capabilities/wave.mjs', import.meta.url)),
  'utf8',
);

export const WAVE_TREE = `root {
  sequence while(watchdog, "ttfa", 2000) {
    condition [connected]
    action [goto_near, $spot, 1]
    action [wave_arm]
  }
}
`;

export const WAVE_PLAN = {
  planId: 'greet',
  intentId: 'say-hello',
  steps: [{ stepId: 'wave-east', type: 'wave', args: { spot: { x: 4, y: 5, z: 0 } } }],
};

export const CONFIG = `export default {
  capabilities: ['./capabilities/wave.mjs'],
  trees: ['./trees'],
  world: { kind: 'sim', seed: 3 },
};
`;

/**
 * A user's project in a temp folder: verbtree.config.mjs, a capability module, its tree, a plan, and a
 * subfolder to work from (so the config is found upward). zod resolves from the project's node_modules.
 * `files` adds or replaces files; undefined leaves one out.
 */
export async function userProject(
  files: Record<string, string | undefined> = {},
): Promise<{ dir: string; sub: string }> {
  const dir = await tempDir('verbtree-project-');
  const all: Record<string, string | undefined> = {
    'verbtree.config.mjs': CONFIG,
    'capabilities/wave.mjs': WAVE_MODULE,
    'trees/wave.mdsl': WAVE_TREE,
    'plans/greet.plan.json': JSON.stringify(WAVE_PLAN),
    'planner-verbs.json': JSON.stringify([...new Set(builtinCapabilities.map((spec) => spec.name)), 'wave']),
    'work/notes.txt': 'a subfolder to run commands from',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    if (text === undefined) continue; // a file the test leaves out
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await mkdir(join(dir, 'node_modules'));
  await symlink(join(NODE_MODULES, 'zod'), join(dir, 'node_modules', 'zod'));
  return { dir, sub: join(dir, 'work') };
}

/** Runs the CLI in-process as if started in `cwd`, capturing what it printed. */
export async function cliIn(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    cwd,
    io: { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) },
  });
  return { code, out, err };
}
