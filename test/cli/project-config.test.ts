import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinCapabilities } from '../../capabilities/index.js';
import { CONFIG, cliIn, userProject, WAVE_MODULE, WAVE_TREE } from '../helpers/user-project.js';

const CLI = fileURLToPath(new URL('../journal/run-cli.ts', import.meta.url));
/** tsx by its path: the child starts in the user's project, which has no tsx of its own. */
const TSX = pathToFileURL(fileURLToPath(new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url))).href;

describe('a project config (verbtree.config.mjs), found from a subfolder of the project', () => {
  it("lint checks the project's trees beside the built-in ones, with the project's own leaves", async () => {
    const { sub, dir } = await userProject();
    const all = await cliIn(sub, 'lint');
    expect(all.err).toBe('');
    const builtin = readdirSync(fileURLToPath(new URL('../../trees', import.meta.url)), { recursive: true }).filter(
      (f) => /\.(mdsl|json)$/.test(String(f)),
    );
    expect(all.out).toContain(`✓ ${builtin.length + 1} tree file(s) clean`);
    expect(all.code).toBe(0);
    const own = await cliIn(sub, 'lint', join(dir, 'trees'));
    expect(own).toMatchObject({ code: 0, out: '✓ 1 tree file(s) clean\n' });
  });

  it('lint names a $name the capability lacks, and leaves called with the wrong number of arguments', async () => {
    const broken = WAVE_TREE.replace('$spot, 1', '$spto, 1').replace(
      'action [wave_arm]',
      'action [wave_arm, 3]\n    action [goto_near]',
    );
    const { sub } = await userProject({ 'trees/wave.mdsl': broken });
    const { code, out } = await cliIn(sub, 'lint');
    expect(code).toBe(1);
    expect(out).toContain(
      'wave.mdsl:4: "$spto" is not an argument of wave@1.0.0 (its arguments: spot) (did you mean "spot"?)',
    );
    expect(out).toContain('wave.mdsl:5: action "wave_arm" takes 0 arguments, given 1');
    expect(out).toContain('wave.mdsl:6: action "goto_near" takes 1 to 2 arguments, given 0');
  });

  it('validate accepts a plan using the new verb; registry lists it and exports its JSON Schema; verbs --check sees it', async () => {
    const { sub, dir } = await userProject();
    const validated = await cliIn(sub, 'validate', join(dir, 'plans/greet.plan.json'));
    expect(validated.out).toContain('valid, 1 step (wave@1.0.0)');
    expect(validated.code).toBe(0);
    const listed = await cliIn(sub, 'registry', '--json');
    expect(JSON.parse(listed.out)).toContainEqual(
      expect.objectContaining({ name: 'wave', version: '1.0.0', runnable: true, tree: 'wave' }),
    );
    const schema = await cliIn(sub, 'registry', '--schema');
    expect(schema.out).toContain('"wave"');
    expect(schema.out).toContain('"spot"');
    const verbs = await cliIn(sub, 'verbs', '--check', join(dir, 'planner-verbs.json'));
    expect(verbs).toMatchObject({
      code: 0,
      out: `✓ the planner and the registry agree on ${new Set(builtinCapabilities.map((spec) => spec.name)).size + 1} verbs\n`,
    });
  });

  it("run takes its world from the config (sim, seed 3) and verifies the new verb's step", async () => {
    const { sub, dir } = await userProject();
    const { code, out, err } = await cliIn(sub, 'run', join(dir, 'plans/greet.plan.json'));
    expect(err).toBe('');
    expect(out).toContain('world: SimWorld (seed 3');
    expect(out).toContain('✓ wave-east (wave) done');
    expect(code).toBe(0);
  });

  it("tree show finds the project's tree", async () => {
    const { sub } = await userProject();
    const { code, out } = await cliIn(sub, 'tree', 'show', 'wave');
    expect(code).toBe(0);
    expect(out).toContain('action [wave_arm]  :5');
  });

  it('works the same from a child process started in the subfolder, with relative paths', () => {
    return userProject().then(({ sub }) => {
      for (const args of [['lint'], ['validate', '../plans/greet.plan.json'], ['run', '../plans/greet.plan.json']]) {
        const child = spawnSync(process.execPath, ['--import', TSX, CLI, ...args], { cwd: sub, encoding: 'utf8' });
        expect(child.stderr).toBe('');
        expect(child.status).toBe(0);
      }
    });
  }, 60_000);

  it('reads a TypeScript config through tsx', async () => {
    const { sub, dir } = await userProject({
      'verbtree.config.mjs': undefined,
      'verbtree.config.ts':
        "const trees: string[] = ['./trees'];\nexport default { capabilities: ['./capabilities/wave.mjs'], trees };\n",
    });
    const { code, out, err } = await cliIn(sub, 'validate', join(dir, 'plans/greet.plan.json'));
    expect(err).toBe('');
    expect(out).toContain('wave@1.0.0');
    expect(code).toBe(0);
  });

  it("sets a worker's headroom limits, which its --help shows as the defaults from the config", async () => {
    const { sub } = await userProject({
      'verbtree.config.mjs': 'export default { worker: { headroom: { loopDelayMs: 400, cpu: 1.5 } } };',
    });
    const { code, out } = await cliIn(sub, 'worker', '--help');
    expect(code).toBe(0);
    // --help wraps its lines: read it as one.
    const help = out.replace(/\s+/g, ' ');
    expect(help).toContain('(default: 400 from verbtree.config.mjs)');
    expect(help).toContain('(default: 1.5 from verbtree.config.mjs)');
  });

  it('--config names a config anywhere; its paths stay relative to it', async () => {
    const { dir } = await userProject();
    const elsewhere = fileURLToPath(new URL('.', import.meta.url));
    const { code, out } = await cliIn(
      elsewhere,
      '--config',
      join(dir, 'verbtree.config.mjs'),
      'validate',
      join(dir, 'plans/greet.plan.json'),
    );
    expect(out).toContain('wave@1.0.0');
    expect(code).toBe(0);
  });
});

describe('a bad project config: one line naming the file, the place and the fix; exit 2', () => {
  const bad = async (files: Record<string, string>) => {
    const { sub } = await userProject(files);
    const result = await cliIn(sub, 'validate', join(sub, '../plans/greet.plan.json'));
    expect(result.code).toBe(2);
    expect(result.err.trim().split('\n')).toHaveLength(1);
    expect(result.err).not.toMatch(/\n\s+at /);
    return result.err;
  };

  it('an unknown key, with "did you mean"', async () => {
    const err = await bad({ 'verbtree.config.mjs': 'export default { tree: ["./trees"] };' });
    expect(err).toMatch(/verbtree\.config\.mjs: config: unknown field "tree": remove it; did you mean "trees"\?/);
  });

  it("an unknown key inside the world, against that world kind's keys", async () => {
    const err = await bad({ 'verbtree.config.mjs': 'export default { world: { kind: "sim", sed: 3 } };' });
    expect(err).toContain('config.world: unknown field "sed": remove it; did you mean "seed"?');
  });

  it('a value of the wrong type names its path', async () => {
    const err = await bad({ 'verbtree.config.mjs': 'export default { world: { kind: "sim", seed: "three" } };' });
    expect(err).toContain(
      'verbtree.config.mjs: config.world.seed: expected number, got string "three"; give a number, e.g. 3',
    );
  });

  it("a worker's headroom out of bounds names its path", async () => {
    const err = await bad({ 'verbtree.config.mjs': 'export default { worker: { headroom: { cpu: -1 } } };' });
    expect(err).toContain('config.worker.headroom.cpu');
  });

  it('a capability module that does not exist', async () => {
    const err = await bad({ 'verbtree.config.mjs': 'export default { capabilities: ["./capabilities/wav.mjs"] };' });
    expect(err).toContain('capability module ./capabilities/wav.mjs (listed in verbtree.config.mjs) does not exist');
  });

  it('a capability module that throws on import', async () => {
    const err = await bad({ 'capabilities/wave.mjs': `throw new Error('boom');\n${WAVE_MODULE}` });
    expect(err).toContain(
      'capability module ./capabilities/wave.mjs (listed in verbtree.config.mjs) failed to load: boom',
    );
  });

  it('a config module that throws on import', async () => {
    const err = await bad({ 'verbtree.config.mjs': 'throw new TypeError("config exploded");' });
    expect(err).toMatch(/config .*verbtree\.config\.mjs failed to load: TypeError: config exploded/);
  });

  it('a stuck config from the config file with a journaled run names the config, not a flag never given', async () => {
    const { sub, dir } = await userProject({
      'verbtree.config.mjs': CONFIG.replace('};', "  stuckConfig: './stuck.json',\n};"),
      'stuck.json': '{}',
    });
    const { code, err } = await cliIn(sub, 'run', join(dir, 'plans/greet.plan.json'), '--journal', join(dir, 'j.db'));
    expect(err).toContain('stuckConfig in ');
    expect(err).toContain('does not combine with --journal or --resume');
    expect(code).toBe(2);
  });

  it('two config files in one folder', async () => {
    const err = await bad({ 'verbtree.config.json': '{}' });
    expect(err).toContain('holds verbtree.config.mjs and verbtree.config.json: keep one verbtree config file');
  });

  it('a capability whose tree no tree folder defines, named when the project is assembled', async () => {
    const { sub, dir } = await userProject({
      'capabilities/wave.mjs': WAVE_MODULE.replace("tree: 'wave'", "tree: 'wav'"),
    });
    const { code, err } = await cliIn(sub, 'run', join(dir, 'plans/greet.plan.json'));
    expect(err).toContain('wave@1.0.0: its tree "wav" is defined in no tree folder (did you mean "wave"?)');
    expect(code).toBe(2);
  });
});
