import { describe, expect, test } from 'vitest';
import {
  checkTreeSources,
  createBindingRegistry,
  formatProblem,
  parseMdsl,
  type BindingRegistry,
} from '../../src/runtime/index.js';
import { mistreevousRefusal, toMistreevousDefinition } from '../../src/runtime/mistreevous-definition.js';
import type { TreeNodeDefinition } from '../../src/runtime/tree-definition.js';

function bindings(): BindingRegistry {
  const registry = createBindingRegistry();
  registry.registerAction('a', () => true);
  registry.registerAction('b', () => true);
  registry.registerCondition('ready', () => true);
  return registry;
}

function lint(file: string, text: string): string[] {
  return checkTreeSources([{ file, text }], bindings()).problems.map(formatProblem);
}

/** A JSON tree written one key per line, and the line of the first line holding `marker`. */
function jsonTree(child: unknown): { text: string; lineOf: (marker: string) => number } {
  const text = JSON.stringify({ type: 'root', child }, null, 2);
  return { text, lineOf: (marker) => text.split('\n').findIndex((line) => line.includes(marker)) + 1 };
}

const A = { type: 'action', call: 'a' };

describe('JSON definitions get the checks mistreevous makes, each at the line of the key at fault', () => {
  test.each([
    [
      'empty children',
      { type: 'sequence', children: [] },
      '"children"',
      /a sequence node needs "children": a non-empty array/,
    ],
    ['a missing child', { type: 'repeat', iterations: 2 }, '"type": "repeat"', /a repeat node needs "child"/],
    [
      'negative iterations',
      { type: 'repeat', iterations: -1, child: A },
      '"iterations"',
      /"iterations" of a repeat node must be a whole number >= 0/,
    ],
    [
      'non-integer attempts',
      { type: 'retry', attempts: 1.5, child: A },
      '"attempts"',
      /"attempts" of a retry node must be a whole number/,
    ],
    ['a reversed range', { type: 'retry', attempts: [3, 1], child: A }, '"attempts"', /\[3, 1\] has min above max/],
    [
      'three values',
      { type: 'repeat', iterations: [1, 2, 3], child: A },
      '"iterations"',
      /one whole number or \[min, max\], got 3 values/,
    ],
    [
      'too few lotto weights',
      { type: 'lotto', weights: [1], children: [A, A] },
      '"weights"',
      /one weight per child \(1 weights, 2 children\)/,
    ],
    [
      'a negative lotto weight',
      { type: 'lotto', weights: [1, -2], children: [A, A] },
      '-2',
      /"weights" of a lotto node must be a whole number >= 0/,
    ],
    [
      'a negative wait',
      { type: 'wait', duration: -5 },
      '"duration"',
      /"duration" of a wait node must be a whole number >= 0/,
    ],
    [
      'a non-integer wait',
      { type: 'wait', duration: 2.5 },
      '"duration"',
      /"duration" of a wait node must be a whole number/,
    ],
    ['a three-value wait', { type: 'wait', duration: [1, 2, 3] }, '"duration"', /got 3 values/],
    [
      'flip with children',
      { type: 'flip', children: [A] },
      '"children"',
      /"children" is not a key of a flip node \(.*belongs to .*lotto nodes\).*mistreevous would ignore it/,
    ],
    [
      'repeat with attempts',
      { type: 'repeat', attempts: 3, child: A },
      '"attempts"',
      /"attempts" is not a key of a repeat node \("attempts" belongs to retry nodes\)/,
    ],
    ['a typo in a key', { type: 'repeat', iteratons: 3, child: A }, '"iteratons"', /did you mean "iterations"/],
    [
      'an attribute without a call',
      { type: 'action', call: 'a', while: { args: [] } },
      '"while"',
      /the "while" attribute needs a "call" name/,
    ],
    [
      'an attribute with an empty call',
      { type: 'action', call: 'a', until: { call: '' } },
      '"call": ""',
      /the "call" of the "until" attribute must be a non-empty string/,
    ],
    ['an action without a call', { type: 'action' }, '"type": "action"', /an action node needs "call"/],
  ])('%s is refused by lint', (_, child, marker, message) => {
    const { text, lineOf } = jsonTree(child);
    const problems = lint('trees/t.json', text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
    expect(problems[0]).toMatch(new RegExp(`^trees/t\\.json:${lineOf(marker)}: `));
  });

  test('an argument that is an object is refused at its own line', () => {
    const { text, lineOf } = jsonTree({ type: 'action', call: 'a', args: ['ok', { x: 1 }] });
    expect(lint('trees/t.json', text)).toEqual([
      `trees/t.json:${lineOf('"ok"') + 1}: the "args" of an action node: each argument is a string, number, true/false, null or {"$": "name"} (a step argument)`,
    ]);
  });

  test('a valid JSON tree with every kind of node lints clean', () => {
    const { text } = jsonTree({
      type: 'sequence',
      while: { call: 'ready', args: [], succeedOnAbort: true },
      children: [
        { type: 'repeat', iterations: [1, 3], child: { type: 'flip', child: { type: 'fail', child: A } } },
        {
          type: 'retry',
          attempts: 2,
          child: { type: 'succeed', child: { type: 'action', call: 'b', args: ['x', 1, true, null, { $: 'goal' }] } },
        },
        { type: 'lotto', weights: [3, 1], children: [A, { type: 'wait', duration: [10, 20] }] },
        {
          type: 'selector',
          children: [
            { type: 'condition', call: 'ready' },
            { type: 'parallel', children: [A] },
            { type: 'race', children: [A] },
            { type: 'all', children: [A] },
          ],
        },
      ],
    });
    expect(lint('trees/t.json', text)).toEqual([]);
  });
});

describe('MDSL corners, read as mistreevous reads them or refused with the reason', () => {
  test('two lotto weights are weights, not a range', () => {
    expect(lint('trees/l.mdsl', 'root {\n  lotto [3, 1] {\n    action [a]\n    action [b]\n  }\n}')).toEqual([]);
  });

  test('a trailing comma after an argument is allowed; a lone comma is no name', () => {
    expect(lint('trees/c.mdsl', 'root { action [b, "x",] while(ready,) }')).toEqual([]);
    expect(lint('trees/c.mdsl', 'root {\n  action [,]\n}')).toEqual([
      "trees/c.mdsl:2: expected an argument but found ',' (mistreevous would take a lone ',' as a name; verbtree does not)",
    ]);
  });

  test('either bracket kind around any argument list', () => {
    expect(
      lint(
        'trees/b.mdsl',
        'root { sequence { action (a) condition (ready) while [ready] repeat (2) { action [b] } } }',
      ),
    ).toEqual([]);
  });

  test('hexadecimal, binary and octal numbers are refused (mistreevous reads them as 0), exponents are not whole counts', () => {
    expect(lint('trees/n.mdsl', 'root {\n  repeat [0x10] { action [a] }\n}')).toEqual([
      'trees/n.mdsl:2: write 0x10 as a decimal number (16): mistreevous reads hexadecimal, binary and octal numbers as 0',
    ]);
    expect(lint('trees/n.mdsl', 'root { action [a, 0b11] }')[0]).toMatch(/write 0b11 as a decimal number \(3\)/);
    expect(lint('trees/n.mdsl', 'root {\n\n  wait [1e3]\n}')).toEqual([
      "trees/n.mdsl:3: wait node arguments must be non-negative whole numbers, got '1000' (write 1000 in plain digits: mistreevous does not read an exponent as a whole number)",
    ]);
    expect(lint('trees/n.mdsl', 'root { action [a, 1e3, -0.5, 7.] }')).toEqual([]);
  });

  test('"then" and its outcome must be words, not strings', () => {
    expect(lint('trees/t.mdsl', 'root {\n  action [a] while(ready) "then" succeed\n}')[0]).toMatch(
      /^trees\/t\.mdsl:2: unknown node type 'then'/,
    );
    expect(lint('trees/t.mdsl', 'root {\n  action [a] while(ready) then "succeed"\n}')).toEqual([
      'trees/t.mdsl:2: expected succeed or fail (unquoted) after \'then\', found "succeed"',
    ]);
  });

  test('a string holding /* is refused: mistreevous would cut it as a comment', () => {
    expect(lint('trees/s.mdsl', 'root {\n  action [a, "x /* y */"]\n}')[0]).toMatch(
      /^trees\/s\.mdsl:2: a string cannot hold "\/\*"/,
    );
  });

  test('every \\" in a string is unescaped (mistreevous 4.3.1 unescapes only the first)', () => {
    expect(parseMdsl('root { action [a, "say \\"hi\\" \\"there\\""] }')[0]!.children[0]!.args).toEqual([
      'say "hi" "there"',
    ]);
  });

  test('a branch takes no attributes, and says so', () => {
    expect(
      lint('trees/r.mdsl', 'root {\n  sequence {\n    branch [x] while(ready)\n  }\n}\nroot [x] { action [a] }'),
    ).toEqual(['trees/r.mdsl:3: a branch node takes no attributes: put the while(...) on a node around it']);
  });

  test('branches that loop between the roots of one file are refused, reachable from the main root or not', () => {
    expect(
      lint('trees/loop.mdsl', 'root { action [a] }\nroot [x] {\n  branch [y]\n}\nroot [y] {\n  branch [x]\n}'),
    ).toEqual(['trees/loop.mdsl:6: circular branch: x -> y -> x']);
  });
});

describe('lines', () => {
  test('an unclosed inner { is reported at its own line when a later } lines up with an outer node', () => {
    const source = ['root {', '  sequence {', '    selector {', '      action [a]', '    action [b]', '  }', '}'].join(
      '\n',
    );
    expect(lint('trees/u.mdsl', source)).toEqual([
      "trees/u.mdsl:3: the selector node opened here has no closing '}' (the '}' on line 6 lines up with an outer node, so the root node at line 1 is left open)",
    ]);
  });

  test('CR-only and CRLF line ends count lines', () => {
    const lines = ['root {', '  sequence {', '    action [nope]', '  }', '}'];
    expect(lint('trees/cr.mdsl', lines.join('\r'))).toEqual(['trees/cr.mdsl:3: unknown action "nope"']);
    expect(lint('trees/crlf.mdsl', lines.join('\r\n'))).toEqual(['trees/crlf.mdsl:3: unknown action "nope"']);
    expect(lint('trees/mixed.mdsl', 'root {\r/* a\r\nb\rc */\n  action [nope]\r}')).toEqual([
      'trees/mixed.mdsl:5: unknown action "nope"',
    ]);
    const json = JSON.stringify({ type: 'root', child: { type: 'action', call: 'nope' } }, null, 2)
      .split('\n')
      .join('\r');
    expect(lint('trees/cr.json', json)).toEqual(['trees/cr.json:4: unknown action "nope"']);
  });
});

describe('nesting depth', () => {
  test('a 20,000-deep MDSL tree gives the nesting limit and its line, not a stack overflow', () => {
    const depth = 20_000;
    const source = `root {\n${'flip {\n'.repeat(depth)}action [a]\n${'}\n'.repeat(depth)}}`;
    expect(lint('trees/deep.mdsl', source)).toEqual([
      'trees/deep.mdsl:201: nodes nest deeper than 200 levels here: split the tree with branch [name] into named roots or other files',
    ]);
  });

  test('a 20,000-deep JSON tree too', () => {
    const depth = 20_000;
    const text = `{"type": "root", "child": ${'{"type": "flip", "child": '.repeat(depth)}{"type": "action", "call": "a"}${'}'.repeat(depth)}}`;
    const problems = lint('trees/deep.json', text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^trees\/deep\.json:1: nodes nest deeper than 200 levels here/);
  });

  test('a chain of branches across files that would nest deeper than the limit once inlined is reported at the branch', () => {
    const files = Array.from({ length: 120 }, (_, i) => ({
      file: `trees/t${i}.mdsl`,
      text: i < 119 ? `root {\n  sequence {\n    branch [t${i + 1}]\n  }\n}` : 'root { action [a] }',
    }));
    const problems = checkTreeSources(files, bindings()).problems;
    expect(problems.length).toBeGreaterThan(0);
    // t0's tree reaches 200 levels at t99's branch: root and sequence, twice per file.
    expect(problems.map(formatProblem)).toContain(
      'trees/t99.mdsl:3: with branch [t100] inlined, nodes nest deeper than 200 levels: flatten the chain of branches',
    );
    expect(problems.every((p) => p.message.includes('nest deeper than 200 levels'))).toBe(true);
  });

  test('200 levels are fine', () => {
    const source = `root {\n${'flip {\n'.repeat(198)}action [a]\n${'}\n'.repeat(198)}}`;
    expect(lint('trees/ok.mdsl', source)).toEqual([]);
  });
});

describe("mistreevous's own validateDefinition runs at load", () => {
  const node = (
    type: TreeNodeDefinition['type'],
    line: number,
    more: Partial<TreeNodeDefinition> = {},
  ): TreeNodeDefinition => ({ type, line, args: [], attributes: [], children: [], ...more });

  test('its message lands at the line of the node it is about, or of the attribute', () => {
    const badRepeat = [
      node('root', 1, {
        children: [
          node('sequence', 2, {
            children: [
              node('action', 3, { name: 'a' }),
              node('repeat', 4, { args: [-1], children: [node('action', 5, { name: 'a' })] }),
            ],
          }),
        ],
      }),
    ];
    expect(mistreevousRefusal(toMistreevousDefinition(badRepeat))).toEqual({
      line: 4,
      message:
        "mistreevous refuses the definition: expected positive iterations count for 'iterations' property if defined for repeat node at depth '2'",
    });
    const badGuard = [
      node('root', 1, {
        children: [
          node('action', 2, {
            name: 'a',
            attributes: [{ kind: 'while', call: '', args: [], succeedOnAbort: false, line: 3 }],
          }),
        ],
      }),
    ];
    expect(mistreevousRefusal(toMistreevousDefinition(badGuard))?.line).toBe(3);
    expect(
      mistreevousRefusal(toMistreevousDefinition([node('root', 1, { children: [node('action', 2, { name: 'a' })] })])),
    ).toBeUndefined();
  });
});
