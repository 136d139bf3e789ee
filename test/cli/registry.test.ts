import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { match } from '../helpers/matchers.js';

const CANONICAL = [
  'activate_block',
  'attack_entity',
  'build_structure',
  'collect_drops',
  'consume_food',
  'craft_item',
  'dig_block',
  'equip',
  'flee',
  'follow_entity',
  'guard_area',
  'navigate',
  'pillar_up',
  'place_block',
  'sleep',
  'smelt_item',
  'store_items',
  'take_items',
];

describe('verbtree registry', () => {
  it('lists the canonical verbs with versions as JSON', async () => {
    const { code, out } = await cli('registry', '--json');
    expect(code).toBe(0);
    const entries = JSON.parse(out) as { name: string; version: string; runnable: boolean }[];
    expect(entries.map((e) => e.name)).toEqual(expect.arrayContaining(CANONICAL));
    for (const entry of entries) expect(entry.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('prints a table for people', async () => {
    const { out } = await cli('registry');
    for (const verb of CANONICAL) expect(out).toContain(verb);
  });

  it('exports JSON Schemas of every input', async () => {
    const schemas = JSON.parse((await cli('registry', '--schema')).out) as {
      name: string;
      inputSchema: { type: string };
    }[];
    expect(schemas.map((s) => s.name)).toEqual(expect.arrayContaining(CANONICAL));
    for (const schema of schemas) expect(schema.inputSchema.type).toBe('object');
  });

  it('--check passes when every capability has an acceptance test', async () => {
    expect(await cli('registry', '--check')).toMatchObject({
      code: 0,
      out: match.stringContaining('has acceptance.test.ts'),
    });
  });
});

describe('verbtree verbs --check', () => {
  it('passes when the planner and the registry agree', async () => {
    expect((await cli('verbs', '--check', 'examples/planner-verbs.json')).code).toBe(0);
  });

  it('fails listing both directions when they diverge', async () => {
    const { code, out } = await cli('verbs', '--check', 'test/fixtures/divergent-verbs.json');
    expect(code).toBe(1);
    expect(out).toContain('the planner emits verbs the registry lacks (steps would fail with unknown_verb): chop_tree');
    expect(out).toMatch(/the registry offers verbs the planner never emits: .*pillar_up/);
  });

  it('exits 2 on a file that is not a verb list', async () => {
    expect(await cli('verbs', '--check', 'package.json')).toMatchObject({
      code: 2,
      err: match.stringContaining('must hold a JSON array of verb names'),
    });
  });
});
