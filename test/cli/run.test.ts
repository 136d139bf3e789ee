import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

const sim = ['--world', 'sim', '--scenario', 'test/fixtures/axe.scenario.json'];

describe('verbtree run', () => {
  it('exits 0 with live progress and a summary when every step is verified', async () => {
    const { code, out } = await cli('run', 'test/fixtures/equip.plan.json', ...sim);
    expect(code).toBe(0);
    expect(out).toContain('world: SimWorld (seed 1, scenario axe)');
    expect(out).toContain('hold-axe (equip) first action "equip"');
    expect(out).toMatch(
      /✓ plan equip succeeded: every step verified as asked against the world in [\d.]+s \(retries 0, repairs 0, escalations 0\)/,
    );
  });

  it('exits 1 and names the step and the code when a step fails', async () => {
    const { code, out } = await cli('run', 'test/fixtures/equip-missing.plan.json', ...sim);
    expect(code).toBe(1);
    expect(out).toContain('✗ hold-sword (equip) failed');
    expect(out).toContain('precondition_missing');
  });

  it('prints events as JSON lines with --json', async () => {
    const { out } = await cli('run', 'test/fixtures/equip.plan.json', ...sim, '--json');
    const types = out
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types[0]).toBe('plan.accepted');
    expect(types.at(-1)).toBe('plan.ended');
  });

  it('records node states for tree show --run', async () => {
    const file = join(await tempDir('verbtree-'), 'nodes.jsonl');
    await cli('run', 'test/fixtures/equip.plan.json', ...sim, '--record-nodes', file);
    expect((await readFile(file, 'utf8')).trim().split('\n').length).toBeGreaterThan(2);
    const shown = await cli('tree', 'show', 'equip', '--run', file);
    expect(shown.out).toMatch(/root\s+= succeeded/);
  });

  it('records node states of a journaled run, the file closed only after the run ends', async () => {
    const dir = await tempDir('verbtree-');
    const file = join(dir, 'nodes.jsonl');
    const journal = join(dir, 'journal.db');
    const { code } = await cli(
      'run',
      'test/fixtures/equip.plan.json',
      ...sim,
      '--journal',
      journal,
      '--record-nodes',
      file,
    );
    expect(code).toBe(0);
    expect((await readFile(file, 'utf8')).trim().split('\n').length).toBeGreaterThan(2);
    const shown = await cli('tree', 'show', 'equip', '--run', file);
    expect(shown.out).toMatch(/root\s+= succeeded/);
  });

  it('exits 2 on a bad fault spec, listing the valid faults', async () => {
    const { code, err } = await cli('run', 'test/fixtures/equip.plan.json', ...sim, '--fault', 'equip=explode');
    expect(code).toBe(2);
    expect(err).toContain('hang, hang_ignoring_abort, throw');
  });

  it('exits 2 on a scenario with a misspelt block, naming the field', async () => {
    const { code, err } = await cli(
      'run',
      'test/fixtures/equip.plan.json',
      '--world',
      'sim',
      '--scenario',
      'test/fixtures/bad.scenario.json',
    );
    expect(code).toBe(2);
    expect(err).toContain('blocks[0].block');
  });

  it('takes stuck detection and recovery settings from a file, and names a bad key', async () => {
    expect(
      (await cli('run', 'test/fixtures/equip.plan.json', ...sim, '--stuck-config', 'test/fixtures/tight.stuck.json'))
        .code,
    ).toBe(0);
    const bad = await cli(
      'run',
      'test/fixtures/equip.plan.json',
      ...sim,
      '--stuck-config',
      'test/fixtures/bad.stuck.json',
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('detection.position.thresholdMs');
  });
});
