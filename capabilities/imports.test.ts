import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * A verb's folder is a template: its files import `verbtree` (the public API, where what verbs share lives), packages
 * (zod, minecraft-data, node:*) and files of their own folder, so a user can copy the folder into a project and it
 * compiles. Its tests may reach into the repository (test/helpers, other verbs to compose with); they are not checked.
 */

const CAPABILITIES = dirname(fileURLToPath(import.meta.url));

/**
 * What breaks the rule in `source`, the text of `file` (a path under capabilities/, e.g. "place_block/guard.ts"): each
 * import, export-from or dynamic import whose specifier is relative and leaves the verb's folder, or is a subpath of
 * `verbtree` rather than its package name. Specifiers are found by TypeScript's own pre-processor, not a regex.
 */
function importProblems(file: string, source: string): string[] {
  const verb = file.split('/')[0]!;
  const { importedFiles } = ts.preProcessFile(source, true, true);
  const problems: string[] = [];
  for (const { fileName: specifier, pos } of importedFiles) {
    const line = source.slice(0, pos).split('\n').length;
    const where = `capabilities/${file}:${line} imports '${specifier}'`;
    if (specifier.startsWith('.') || specifier.startsWith('/')) {
      const target = posix.normalize(posix.join(posix.dirname(file), specifier));
      if (specifier.startsWith('/') || !target.startsWith(`${verb}/`))
        problems.push(
          `${where}, outside capabilities/${verb}/: import what verbs share from 'verbtree' (src/kit/), or move it into the folder`,
        );
    } else if (specifier.startsWith('verbtree/'))
      problems.push(`${where}: import the public API by its package name, 'verbtree'`);
  }
  return problems;
}

/** Every capability source file (not a test), as "<verb>/<path>". */
function capabilitySources(): string[] {
  const files: string[] = [];
  for (const verb of readdirSync(CAPABILITIES, { withFileTypes: true })) {
    if (!verb.isDirectory()) continue;
    for (const entry of readdirSync(join(CAPABILITIES, verb.name), { recursive: true, encoding: 'utf8' }))
      if (entry.endsWith('.ts') && !entry.endsWith('.test.ts')) files.push(`${verb.name}/${entry.replace(/\\/g, '/')}`);
  }
  return files.sort();
}

describe('a verb folder imports only verbtree, packages and its own files', () => {
  it('the checker names an import of another verb, of src/ or of a verbtree subpath, and passes the allowed ones', () => {
    const fixture = [
      "import { type TreeBindings, withinReach } from 'verbtree';",
      "import { z } from 'zod';",
      "import { readFileSync } from 'node:fs';",
      "import type { PlaceBlockArgs } from './schema.js';",
      "import { offset } from './parts/../cells.js';",
      "import { waitUntil } from '../pillar_up/wait.js';",
      "import { SimWorld } from '../../src/world/sim/index.js';",
      "export { dropsNear } from '../collect_drops/drops.js';",
      "const tags = await import('../collect_block/tags.js');",
      "import { harness } from 'verbtree/testing';",
      "import { sneaky } from './../dig_block/tools.js';",
    ].join('\n');
    expect(importProblems('place_block/bindings.ts', fixture)).toEqual([
      "capabilities/place_block/bindings.ts:6 imports '../pillar_up/wait.js', outside capabilities/place_block/: import what verbs share from 'verbtree' (src/kit/), or move it into the folder",
      "capabilities/place_block/bindings.ts:7 imports '../../src/world/sim/index.js', outside capabilities/place_block/: import what verbs share from 'verbtree' (src/kit/), or move it into the folder",
      "capabilities/place_block/bindings.ts:8 imports '../collect_drops/drops.js', outside capabilities/place_block/: import what verbs share from 'verbtree' (src/kit/), or move it into the folder",
      "capabilities/place_block/bindings.ts:9 imports '../collect_block/tags.js', outside capabilities/place_block/: import what verbs share from 'verbtree' (src/kit/), or move it into the folder",
      "capabilities/place_block/bindings.ts:10 imports 'verbtree/testing': import the public API by its package name, 'verbtree'",
      "capabilities/place_block/bindings.ts:11 imports './../dig_block/tools.js', outside capabilities/place_block/: import what verbs share from 'verbtree' (src/kit/), or move it into the folder",
    ]);
    // A file deeper in its folder may climb back into it, never past it.
    expect(importProblems('sleep/parts/bed.ts', "import { x } from '../bindings.js';")).toEqual([]);
    expect(importProblems('sleep/parts/bed.ts', "import { x } from '../../dig_block/tools.js';")).toHaveLength(1);
  });

  it('every built-in capability keeps to it', () => {
    const files = capabilitySources();
    expect(files.length).toBeGreaterThan(100);
    const problems = files.flatMap((file) => importProblems(file, readFileSync(join(CAPABILITIES, file), 'utf8')));
    expect(problems).toEqual([]);
  });
});
