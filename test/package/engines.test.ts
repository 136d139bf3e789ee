import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: unknown }>;
};

/**
 * Locked packages whose `engines` ask for more than ours, each with why verbtree still runs on its minimum.
 * The README's Requirements repeats these; a package leaves this list when its declaration changes.
 */
const DECLARED_HIGHER: Record<string, string> = {
  'node_modules/minecraft-protocol':
    'declares node >=22 since 1.55.0, when its CI moved to Node 22 ("Update to node 22", #1371), not for an API; every version flying-squid 1.12 accepts (^1.66) does. This suite, real server and bots included, runs on Node 20.',
};

describe("the package's engines", () => {
  const minimum = semver.minVersion(manifest.engines.node)!.version;

  it('admit the Node this suite runs on, so the claim is tested where it is made', () => {
    expect(semver.satisfies(process.versions.node, manifest.engines.node)).toBe(true);
    expect(
      semver.major(process.versions.node),
      `the suite runs on Node ${process.versions.node}; engines say ${manifest.engines.node}`,
    ).toBe(semver.major(minimum));
  });

  it("agree with every locked package's engines, or name the package and why it is not a requirement", () => {
    const higher = Object.entries(lock.packages)
      .map(([path, entry]) => [path, (entry.engines as { node?: unknown } | undefined)?.node] as const)
      .filter((pair): pair is readonly [string, string] => typeof pair[1] === 'string' && pair[0] !== '')
      .filter(([, range]) => !semver.satisfies(minimum, range))
      .map(([path, range]) => `${path} wants node ${range}`);
    expect(higher.filter((line) => !(line.split(' wants ')[0]! in DECLARED_HIGHER))).toEqual([]);
    // No stale entry: each listed package is locked and still asks for more.
    expect(
      Object.keys(DECLARED_HIGHER).filter((path) => !higher.some((line) => line.startsWith(`${path} wants`))),
    ).toEqual([]);
  });

  it('are explained in the README for each package that asks for more', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const path of Object.keys(DECLARED_HIGHER)) expect(readme).toContain(path.replace('node_modules/', ''));
  });
});
