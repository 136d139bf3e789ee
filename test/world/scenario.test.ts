import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScenarioError, loadScenario, parseScenario } from '../../src/world/scenario/index.js';

const examples = path.resolve('examples/scenarios');

function issuesOf(value: unknown): { where: string; message: string }[] {
  try {
    parseScenario(value, 'test');
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return [...(error as ScenarioError).issues];
  }
  throw new Error('expected the scenario to be rejected');
}

describe('scenario files', () => {
  it('every example in examples/scenarios parses', async () => {
    const files = (await readdir(examples)).filter((file) => file.endsWith('.json'));
    expect(files).toEqual(
      expect.arrayContaining(['forest.json', 'no-crafting-table.json', 'nightfall.json', 'walled-in.json']),
    );
    for (const file of files) {
      const scenario = await loadScenario(path.join(examples, file));
      expect(scenario.name).toBe(path.basename(file, '.json'));
    }
  });

  it('fills in defaults: spawn on the superflat ground, full health, empty inventory, frozen time', () => {
    const scenario = parseScenario({ name: 'bare' });
    expect(scenario.spawn).toEqual({ x: 0, y: 5, z: 0 });
    expect(scenario.bot).toEqual({ inventory: {}, health: 20, food: 20 });
    expect(scenario.daylightCycle).toBe(false);
  });

  it('names the field and suggests the block for a misspelt block name', () => {
    const [issue] = issuesOf({ name: 'x', blocks: [{ x: 1, y: 5, z: 1, block: 'oak_logg' }] });
    expect(issue!.where).toBe('blocks[0].block');
    expect(issue!.message).toContain('did you mean "oak_log"');
  });

  it('names the item key of a bad inventory entry and a food value out of range', () => {
    const issues = issuesOf({ name: 'x', bot: { inventory: { cobblestone: 3, stik: 2 }, food: 25 } });
    const wheres = issues.map((issue) => issue.where);
    expect(wheres).toContain('bot.food');
    expect(issues.some((issue) => issue.message.includes('"stik"') && issue.message.includes('stick'))).toBe(true);
  });

  it('rejects unknown fields with a did-you-mean, and fills too large to set', () => {
    expect(issuesOf({ name: 'x', spwan: { x: 0, y: 5, z: 0 } })[0]!.message).toContain('did you mean "spawn"');
    const huge = issuesOf({
      name: 'x',
      fills: [{ from: { x: 0, y: 0, z: 0 }, to: { x: 999, y: 10, z: 999 }, block: 'stone' }],
    });
    expect(huge[0]!.where).toBe('fills');
    expect(huge[0]!.message).toContain('shrink the fill regions');
  });

  it('reports a missing file and broken JSON as file problems', async () => {
    await expect(loadScenario('examples/scenarios/nope.json')).rejects.toThrow(/no such file/);
  });
});
