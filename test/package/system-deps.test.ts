import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.js';

const repo = join(import.meta.dirname, '..', '..');
const script = join(repo, 'scripts', 'system-deps.sh');
const CHROMIUM = 'usr/bin/chromium';
const INITDB = 'usr/lib/postgresql/15/bin/initdb';

interface Machine {
  uid: number;
  /** Files already under the stand-in root. */
  has: string[];
  /** Whether apt-get is on the PATH, and what its install does: put the files in place, or nothing. */
  apt?: 'installs' | 'installs nothing' | 'fails';
  /** Other commands on the PATH. */
  onPath?: string[];
}

/** Runs the real script against a stand-in machine: a root folder, and a PATH holding only `id` and maybe `apt-get`. */
async function runOn(machine: Machine) {
  const dir = await tempDir('verbtree-system-deps-');
  const root = join(dir, 'root');
  const bin = join(dir, 'bin');
  const log = join(dir, 'apt-get.log');
  mkdirSync(bin, { recursive: true });
  for (const file of machine.has) executable(join(root, file), '');
  for (const command of machine.onPath ?? []) executable(join(bin, command), '');
  executable(join(bin, 'id'), `#!/bin/bash\n[ "$1" = -u ] && echo ${machine.uid}\n`);
  if (machine.apt) {
    const onInstall = {
      installs: `for p in "$@"; do case $p in chromium) f=${CHROMIUM};; postgresql) f=${INITDB};; *) continue;; esac; /bin/mkdir -p "$(/usr/bin/dirname "${root}/$f")"; echo > "${root}/$f"; /bin/chmod +x "${root}/$f"; done`,
      'installs nothing': ':',
      fails: 'exit 100',
    }[machine.apt];
    executable(
      join(bin, 'apt-get'),
      `#!/bin/bash\necho "DEBIAN_FRONTEND=$DEBIAN_FRONTEND $*" >> ${log}\n[ "$1" = install ] && { ${onInstall}; }\nexit 0\n`,
    );
  }
  const run = spawnSync('/bin/bash', [script], {
    env: { PATH: bin, SYSTEM_DEPS_ROOT: root },
    encoding: 'utf8',
  });
  const aptCalls = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  return {
    status: run.status,
    stderr: run.stderr,
    stdout: run.stdout,
    aptCalls,
    installed: (file: string) => existsSync(join(root, file)),
  };
}

function executable(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

describe("npm test's system packages (scripts/system-deps.sh)", () => {
  it('does nothing when chromium and postgresql are there', async () => {
    const run = await runOn({ uid: 0, has: [CHROMIUM, INITDB], apt: 'installs' });
    expect(run).toMatchObject({ status: 0, stderr: '', stdout: '', aptCalls: [] });
  });

  it('as root with apt-get, updates once and installs both, quietly and without questions', async () => {
    const run = await runOn({ uid: 0, has: [], apt: 'installs' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.aptCalls).toEqual([
      'DEBIAN_FRONTEND= update -qq',
      'DEBIAN_FRONTEND=noninteractive install -y -qq chromium postgresql',
    ]);
    expect(run.installed(CHROMIUM) && run.installed(INITDB)).toBe(true);
    expect(run.stdout).toBe('');
  });

  it('installs only the package that is missing', async () => {
    const run = await runOn({ uid: 0, has: [INITDB], apt: 'installs' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.aptCalls.at(-1)).toBe('DEBIAN_FRONTEND=noninteractive install -y -qq chromium');
  });

  it('not root: fails at once with the command to run, and calls no apt-get', async () => {
    const run = await runOn({ uid: 1000, has: [CHROMIUM], apt: 'installs' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('run as root: apt-get update && apt-get install -y postgresql');
    expect(run.aptCalls).toEqual([]);
  });

  it('no apt-get: fails at once naming the packages and the Debian command', async () => {
    const run = await runOn({ uid: 0, has: [] });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('no apt-get');
    expect(run.stderr).toContain('apt-get update && apt-get install -y chromium postgresql');
  });

  it('fails when apt-get fails, or when the package it installed still does not give the files the tests use', async () => {
    const failing = await runOn({ uid: 0, has: [], apt: 'fails' });
    expect(failing.status).not.toBe(0);
    const empty = await runOn({ uid: 0, has: [CHROMIUM], apt: 'installs nothing' });
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain('postgresql is still missing');
  });

  it('takes an initdb on the PATH, as the PostgreSQL helper does outside Debian', async () => {
    const run = await runOn({ uid: 1000, has: [CHROMIUM], onPath: ['initdb'] });
    expect(run).toMatchObject({ status: 0, stderr: '' });
  });
});

describe('the one test command', () => {
  it('is what CI runs, and npm test installs its system packages first', () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const ci = readFileSync(join(repo, '.ci', 'run'), 'utf8');
    const scripts = (
      JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    const command = /^(npm ci && npm test)\b/m.exec(readme)?.[1];
    expect(command).toBe('npm ci && npm test');
    const ciCommands = ci.split('\n').filter((line) => line && !/^(#|set |cd )/.test(line));
    expect(ciCommands).toEqual([command]);
    expect(scripts.pretest).toBe('bash scripts/system-deps.sh');
  });
});
