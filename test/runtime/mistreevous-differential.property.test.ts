import fc from 'fast-check';
import { validateDefinition } from 'mistreevous';
import { describe, expect, test } from 'vitest';
import { mistreevousRefusal, toMistreevousDefinition } from '../../src/runtime/mistreevous-definition.js';
import { readTreeDefinition } from '../../src/runtime/tree-source.js';
import { JSON_REFUSALS, generatedJson } from './json-tree-arbitrary.js';
import { REFUSALS, generatedMdsl } from './mdsl-arbitrary.js';

/** mistreevous 4.3.1 unescapes only the first \" of a string; verbtree unescapes each (docs/capabilities.md). */
function unescapeEveryQuote(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\\"/g, '"');
  if (Array.isArray(value)) return value.map(unescapeEveryQuote);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unescapeEveryQuote(v)]));
  return value;
}

describe('verbtree reads tree definitions as mistreevous 4.3.1 does', () => {
  test('MDSL: same valid or invalid, same JSON; documented differences are refusals with their reason', () => {
    fc.assert(
      fc.property(generatedMdsl, (generated) => {
        const theirs = validateDefinition(generated.mistreevous);
        const ours = readTreeDefinition('trees/t.mdsl', generated.verbtree);
        const messages = ours.ok ? [] : ours.problems.map((p) => p.message);
        if (generated.refusals.size > 0) {
          expect(ours.ok, 'verbtree refuses a documented difference').toBe(false);
          if (theirs.succeeded)
            expect(
              messages.some((m) => [...generated.refusals].some((r) => m.includes(REFUSALS[r]))),
              messages.join('; '),
            ).toBe(true);
          return;
        }
        expect(
          ours.ok,
          `mistreevous: ${theirs.errorMessage ?? 'valid'}; verbtree: ${messages.join('; ') || 'valid'}`,
        ).toBe(theirs.succeeded);
        if (!ours.ok) return;
        expect(ours.mistreevous.document).toEqual(unescapeEveryQuote(theirs.json));
        expect(mistreevousRefusal(ours.mistreevous)).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });

  test('JSON: same valid or invalid, same definition; keys and values mistreevous would ignore are refusals with their reason', () => {
    fc.assert(
      fc.property(generatedJson, (generated) => {
        const definition: unknown = JSON.parse(generated.text);
        const theirs = validateDefinition(definition);
        const ours = readTreeDefinition('trees/t.json', generated.text);
        const messages = ours.ok ? [] : ours.problems.map((p) => p.message);
        if (generated.refusals.size > 0) {
          expect(ours.ok, 'verbtree refuses a documented difference').toBe(false);
          if (theirs.succeeded)
            expect(
              messages.some((m) => [...generated.refusals].some((r) => m.includes(JSON_REFUSALS[r]))),
              messages.join('; '),
            ).toBe(true);
          return;
        }
        expect(
          ours.ok,
          `mistreevous: ${theirs.errorMessage ?? 'valid'}; verbtree: ${messages.join('; ') || 'valid'}`,
        ).toBe(theirs.succeeded);
        if (!ours.ok) return;
        expect(toMistreevousDefinition(ours.roots).document).toEqual(withDefaults(theirs.json));
        expect(mistreevousRefusal(ours.mistreevous)).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });
});

/** A JSON definition as mistreevous's MDSL parser writes it: `args` on every call, `succeedOnAbort` on every guard. */
function withDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withDefaults);
  if (typeof value !== 'object' || value === null) return value;
  const node = { ...(value as Record<string, unknown>) };
  if ((node.type === 'action' || node.type === 'condition') && node.args === undefined) node.args = [];
  for (const kind of ['while', 'until', 'entry', 'exit', 'step']) {
    const attribute = node[kind] as Record<string, unknown> | undefined;
    if (attribute)
      node[kind] = {
        args: [],
        ...(kind === 'while' || kind === 'until' ? { succeedOnAbort: false } : {}),
        ...attribute,
      };
  }
  if (node.child) node.child = withDefaults(node.child);
  if (Array.isArray(node.children)) node.children = node.children.map(withDefaults);
  return node;
}
