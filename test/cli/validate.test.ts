import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { match } from '../helpers/matchers.js';

describe('verbtree validate', () => {
  it('exits 0 on a good plan and names the resolved capabilities', async () => {
    const { code, out } = await cli('validate', 'examples/acquire-wood.plan.json');
    expect(code).toBe(0);
    expect(out).toContain(
      '✓ examples/acquire-wood.plan.json: valid, 4 steps (navigate@1.0.0, craft_item@1.0.0, dig_block@1.0.0, collect_drops@1.0.0)',
    );
  });

  it('exits 1 on an unknown verb and suggests the registered one', async () => {
    const { code, out } = await cli('validate', 'examples/invalid/unknown-verb.plan.json');
    expect(code).toBe(1);
    expect(out).toContain(
      'steps[1].type (step "chop")  unknown_verb: unknown verb "dig_blok"; did you mean "dig_block"?',
    );
  });

  it('exits 1 on bad arguments, listing each with its path and fix', async () => {
    const { code, out } = await cli('validate', 'examples/invalid/bad-arguments.plan.json');
    expect(code).toBe(1);
    expect(out).toContain('2 problems');
    expect(out).toContain('steps[0].args.target.x (step "walk")  schema_violation: expected number, got string "six"');
    expect(out).toContain(
      'steps[1].args (step "craft")  schema_violation: unknown field "cnt": remove it; did you mean "count"?',
    );
  });

  it('prints machine-readable reports with --json', async () => {
    const { code, out } = await cli('validate', 'examples/invalid/unknown-verb.plan.json', '--json');
    expect(code).toBe(1);
    const report: unknown = JSON.parse(out);
    expect(report).toMatchObject({
      ok: false,
      issues: [{ code: 'unknown_verb', where: 'steps[1].type', suggestion: 'dig_block' }],
    });
  });

  it('checks every *.plan.json in a folder', async () => {
    const { code, out } = await cli('validate', 'examples');
    expect(code).toBe(0);
    expect(out).toContain('acquire-wood.plan.json');
  });

  it('exits 2 on a missing file, a syntax error (with line and column) and a missing argument', async () => {
    expect(await cli('validate', 'no/such/plan.json')).toMatchObject({
      code: 2,
      err: match.stringContaining('cannot read no/such/plan.json'),
    });
    const dir = await tempDir('verbtree-');
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{\n  "planId": "p",\n  "steps": [,]\n}');
    const syntax = await cli('validate', broken);
    expect(syntax.code).toBe(2);
    expect(syntax.err).toMatch(/is not valid JSON at line 3, column \d+/);
    expect((await cli('validate')).code).toBe(2);
  });

  it('has help with an example', async () => {
    const { code, out } = await cli('validate', '--help');
    expect(code).toBe(0);
    expect(out).toContain('$ verbtree validate examples/acquire-wood.plan.json');
  });
});
