import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  TreeLoadError,
  checkTreeSources,
  createBindingRegistry,
  createTreeCatalog,
  createTreeRunner,
  formatProblem,
  readTreeSources,
  type BindingRegistry,
} from '../../src/runtime/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { builtinCapabilities } from '../../capabilities/index.js';

function bindings(): BindingRegistry {
  const registry = createBindingRegistry();
  registry.registerAction('mine_block', () => true);
  registry.registerCondition('has_pickaxe', () => true);
  return registry;
}

function lint(files: Record<string, string>): string[] {
  const sources = Object.entries(files).map(([file, text]) => ({ file, text }));
  return checkTreeSources(sources, bindings()).problems.map(formatProblem);
}

describe('lint reports every problem with file and line', () => {
  test('unknown names, bad watchdogs and misplaced idioms, all at once, with suggestions', () => {
    const source = [
      'root {', //                                                   1
      '  sequence while(watchdog, "ttfaa", 2000, "noActuator", -5) {', // 2
      '    condition [has_pickax]', //                               3
      '    action [mine_blok]', //                                   4
      '    action [has_pickaxe]', //                                 5
      '    action [backoff, 100, 50]', //                            6
      '    action [round_robin, "mine_block", "unstuck_jmup"]', //   7
      '  }', //                                                      8
      '  }', //                                                      9 (extra brace is fine: closes root)
    ].join('\n');
    const fixed = source.split('\n').slice(0, 8).join('\n') + '\n}';
    expect(lint({ 'trees/dig.mdsl': fixed })).toEqual([
      'trees/dig.mdsl:2: unknown watchdog kind "ttfaa" (did you mean "ttfa"?); kinds: ttfa, maxStateDuration, noActuator',
      'trees/dig.mdsl:2: watchdog "noActuator" needs a positive limit in milliseconds, got -5',
      'trees/dig.mdsl:3: unknown condition "has_pickax" (did you mean "has_pickaxe"?)',
      'trees/dig.mdsl:4: unknown action "mine_blok" (did you mean "mine_block"?)',
      'trees/dig.mdsl:5: unknown action "has_pickaxe" (it is bound as a condition: use condition [...])',
      'trees/dig.mdsl:6: backoff takes [backoff, baseMs, maxMs] with 0 < baseMs <= maxMs, e.g. action [backoff, 250, 4000]',
      'trees/dig.mdsl:6: backoff counts the attempts of an enclosing retry node; put it inside retry [n] { ... }',
      'trees/dig.mdsl:7: round_robin: "unstuck_jmup" is not a bound action (did you mean "unstuck_jump"?)',
    ]);
  });

  test('a syntax error names its line', () => {
    expect(lint({ 'trees/a.mdsl': 'root {\n  sequence {\n    action [go, unquoted]\n  }\n}' })).toEqual([
      'trees/a.mdsl:3: invalid action argument \'unquoted\': quote strings ("unquoted") or use $name for a step argument',
    ]);
    expect(lint({ 'trees/b.mdsl': 'root {\n  sequence {\n    action [mine_block]\n' })).toEqual([
      "trees/b.mdsl:2: the sequence node opened here has no closing '}'",
    ]);
    expect(lint({ 'trees/c.mdsl': 'root {\n  sequense { action [mine_block] }\n}' })[0]).toMatch(
      /^trees\/c\.mdsl:2: unknown node type 'sequense'/,
    );
  });

  test('missing and circular branches, across files and within one', () => {
    expect(
      lint({
        'trees/a.mdsl': 'root {\n  branch [b]\n}',
        'trees/b.mdsl': 'root {\n  sequence {\n    branch [a]\n  }\n}',
        'trees/c.mdsl': 'root {\n  branch [helpr]\n}\nroot [helper] {\n  action [mine_block]\n}',
      }),
    ).toEqual([
      // Each cycle is reported at the branch that closes it, once per tree it is reached from.
      'trees/a.mdsl:2: circular branch: b -> a -> b',
      'trees/b.mdsl:3: circular branch: a -> b -> a',
      'trees/c.mdsl:2: branch [helpr] names no tree: not a root [helpr] in this file nor a file helpr.mdsl (did you mean "helper"?)',
    ]);
  });

  test('JSON trees are accepted and checked with the line of each node', () => {
    const json = JSON.stringify(
      {
        type: 'root',
        child: {
          type: 'sequence',
          children: [
            { type: 'action', call: 'mine_block' },
            { type: 'action', call: 'nope' },
          ],
        },
      },
      null,
      2,
    );
    expect(lint({ 'trees/j.json': json })).toEqual([
      `trees/j.json:${json.split('\n').findIndex((l) => l.includes('nope'))}: unknown action "nope"`,
    ]);
  });

  test('a JSON node\'s line is its own "type" key\'s, whatever order its keys are in, and a JSON syntax error has its line', () => {
    const json = [
      '{',
      '  "type": "root",',
      '  "child": {',
      '    "children": [',
      '      { "call": "nope", "type": "action" }',
      '    ],',
      '    "type": "sequence"',
      '  }',
      '}',
    ].join('\n');
    expect(lint({ 'trees/j.json': json })).toEqual(['trees/j.json:5: unknown action "nope"']);
    expect(lint({ 'trees/k.json': '{\n  "type": "root",\n  "child": { "type": "action" "call": "x" }\n}' })).toEqual([
      'trees/k.json:3: invalid JSON at column 31: comma expected',
    ]);
  });

  test('duplicate tree names and unsupported callbacks are reported', () => {
    expect(
      lint({
        'trees/x.mdsl': 'root { action [mine_block] entry(has_pickaxe) }',
        'trees/more/x.json': '{"type":"root","child":{"type":"action","call":"mine_block"}}',
      }),
    ).toEqual([
      'trees/more/x.json:1: tree "x" is also defined by trees/x.mdsl; tree names come from file names and must be unique',
      'trees/x.mdsl:1: entry(has_pickaxe) callbacks are not supported: they bypass cancellation; use an action node',
    ]);
  });
});

describe('loading', () => {
  test('fails before the first tick with every problem', () => {
    const load = () =>
      createTreeCatalog([{ file: 'trees/t.mdsl', text: 'root { sequence { action [a1] action [a2] } }' }], bindings());
    expect(load).toThrow(TreeLoadError);
    expect(() => load()).toThrow(
      /2 problem\(s\)[\s\S]*t\.mdsl:1: unknown action "a1"[\s\S]*t\.mdsl:1: unknown action "a2"/,
    );
  });

  test("every tree shipped under trees/ lints clean against the runtime's and the built-in capabilities' leaves, and builds", async () => {
    const sources = await readTreeSources([fileURLToPath(new URL('../../trees', import.meta.url))]);
    expect(sources.length).toBeGreaterThanOrEqual(5);
    const registry = createBindingRegistry();
    for (const spec of builtinCapabilities) registry.registerCapability(spec);
    expect(checkTreeSources(sources, registry).problems.map(formatProblem)).toEqual([]);
    const catalog = createTreeCatalog(sources, registry);
    const runner = createTreeRunner({ catalog, bindings: registry, clock: new ManualClock() });
    const world = { isConnected: () => false } as never;
    for (const name of catalog.names()) {
      const controller = new AbortController();
      controller.abort('aborted');
      // Building each run constructs the mistreevous tree from the compiled definition.
      expect(await runner.run(name, { args: {}, world }, { signal: controller.signal })).toMatchObject({
        ok: false,
        code: 'aborted',
      });
    }
  });
});

test('each root of a file reports its first syntax error', () => {
  const source =
    'root {\n  action [mine_block\n}\nroot [helper] {\n  sequence { }\n}\nroot [other] {\n  action [mine_block]\n}';
  expect(lint({ 'trees/s.mdsl': source })).toEqual([
    "trees/s.mdsl:3: expected ',' or ']' but found '}'",
    'trees/s.mdsl:5: a sequence node must have at least one child node',
  ]);
});
