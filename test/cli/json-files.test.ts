import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { describe, expect, it } from 'vitest';
import { ScenarioError, loadScenario, parseScenario } from '../../src/world/scenario/index.js';
import { checkTreeSources, createBindingRegistry, formatProblem } from '../../src/runtime/index.js';
import { cli } from '../helpers/cli.js';
import { match } from '../helpers/matchers.js';

const BOM = '\ufeff';

async function scratch(name: string, text: string): Promise<string> {
  const file = join(await tempDir('verbtree-json-'), name);
  await writeFile(file, text);
  return file;
}

describe('JSON files that start with a UTF-8 byte order mark are read', () => {
  it('a plan', async () => {
    const plan = await scratch('walk.plan.json', BOM + (await readFile('examples/walk.plan.json', 'utf8')));
    const { code, out } = await cli('validate', plan);
    expect(code).toBe(0);
    expect(out).toContain('walk.plan.json: valid, 2 steps');
  });

  it('a scenario', async () => {
    const file = await scratch('s.json', `${BOM}{ "name": "bom", "bot": { "inventory": { "oak_log": 3 } } }`);
    expect((await loadScenario(file)).bot.inventory).toEqual({ oak_log: 3 });
  });

  it('a JSON tree, with its lines kept', () => {
    const registry = createBindingRegistry();
    const text = `${BOM}{\n  "type": "root",\n  "child": { "type": "action", "call": "nope" }\n}`;
    expect(checkTreeSources([{ file: 't.json', text }], registry).problems.map(formatProblem)).toEqual([
      't.json:3: unknown action "nope"',
    ]);
  });
});

describe("a scenario inventory must fit in the bot's 36 slots", () => {
  it("36 stacks fit; 37 are refused at bot.inventory, counting each item's own stack size", () => {
    expect(
      parseScenario({ name: 'full', bot: { inventory: { oak_log: 64 * 35, stone_axe: 1 } } }).bot.inventory,
    ).toEqual({ oak_log: 2240, stone_axe: 1 });
    // Axes stack to 1, so 36 logs' worth of slots plus one axe is one too many.
    const refuse = () => parseScenario({ name: 'over', bot: { inventory: { oak_log: 64 * 35, stone_axe: 2 } } });
    expect(refuse).toThrow(ScenarioError);
    try {
      refuse();
    } catch (error) {
      expect((error as ScenarioError).issues).toEqual([
        expect.objectContaining({
          where: 'bot.inventory',
          message: match.stringMatching(
            /^needs 37 inventory slots, more than the bot's 36 .*2240 oak_log take 35, 2 stone_axe take 2/,
          ),
        }),
      ]);
    }
  });

  it('the CLI refuses it with exit 2 before any world starts', async () => {
    const scenario = await scratch(
      'big.json',
      JSON.stringify({ name: 'big', bot: { inventory: { ender_pearl: 16 * 37 } } }),
    );
    const { code, err } = await cli('run', 'examples/walk.plan.json', '--world', 'sim', '--scenario', scenario);
    expect(code).toBe(2);
    expect(err).toContain('bot.inventory: needs 37 inventory slots');
  });
});
