import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { argumentNames } from '../../src/registry/index.js';
import {
  BindingError,
  checkTreeSources,
  createBindingRegistry,
  formatProblem,
  type TreeCapability,
} from '../../src/runtime/index.js';

function lint(text: string, capabilities: readonly TreeCapability[] = []): string[] {
  const bindings = createBindingRegistry().register(
    { actions: { wave_arm: () => true, say: () => true }, arity: { wave_arm: [0, 1] } },
    'wave@1.0.0',
  );
  return checkTreeSources([{ file: 'wave.mdsl', text }], bindings, { capabilities }).problems.map(formatProblem);
}

describe("lint knows the capabilities and the leaves' arity", () => {
  test('a $name must be an argument of each capability whose tree it is, with "did you mean"', () => {
    const wave: TreeCapability = { owner: 'wave@1.0.0', tree: 'wave', argumentNames: ['spot', 'times'] };
    const text = 'root {\n  sequence {\n    action [goto, $spto]\n    action [goto, $spot]\n  }\n}';
    expect(lint(text, [wave])).toEqual([
      'wave.mdsl:3: "$spto" is not an argument of wave@1.0.0 (its arguments: spot, times) (did you mean "spot"?)',
    ]);
    // A tree no capability runs, or one whose schema cannot say its names, is not checked.
    expect(lint(text, [{ ...wave, tree: 'other' }])).toEqual([]);
    expect(lint(text, [{ owner: 'wave@2.0.0', tree: 'wave' }])).toEqual([]);
  });

  test('a leaf called with the wrong number of arguments is named, where its binding declares the arity', () => {
    const text =
      'root {\n  sequence while(connected, 1) {\n    action [goto]\n    action [place, $at]\n    action [wave_arm, 1, 2]\n    action [wave_arm, 1]\n    action [say, 1, 2, 3]\n    condition [connected]\n  }\n}';
    expect(lint(text)).toEqual([
      'wave.mdsl:2: guard condition "connected" takes 0 arguments, given 1',
      'wave.mdsl:3: action "goto" takes 1 argument, given 0',
      'wave.mdsl:4: action "place" takes 2 arguments, given 1',
      'wave.mdsl:5: action "wave_arm" takes 0 to 1 arguments, given 2',
    ]);
  });

  test('an arity must be for a leaf the bindings bind, and a sane count', () => {
    expect(() =>
      createBindingRegistry().register({ actions: { wave_arm: () => true }, arity: { wave_amr: 0 } }, 'wave@1.0.0'),
    ).toThrow(
      new BindingError('wave@1.0.0: arity given for "wave_amr", which it does not bind (did you mean "wave_arm"?)'),
    );
    expect(() =>
      createBindingRegistry().register(
        { actions: { wave_arm: () => true }, arity: { wave_arm: [2, 1] } },
        'wave@1.0.0',
      ),
    ).toThrow(/must be a whole number or \[min, max\]/);
  });

  test("argument names come from the schema's output shape, through wrappers and unions; unknown when it cannot say", () => {
    expect(argumentNames(z.strictObject({ b: z.number(), a: z.string().optional() }))).toEqual(['a', 'b']);
    expect(argumentNames(z.object({ a: z.number() }).default({ a: 1 }))).toEqual(['a']);
    expect(argumentNames(z.preprocess((v) => v, z.object({ a: z.number() })))).toEqual(['a']);
    expect(
      argumentNames(
        z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('x'), x: z.number() }),
          z.object({ kind: z.literal('y'), y: z.number() }),
        ]),
      ),
    ).toEqual(['kind', 'x', 'y']);
    expect(argumentNames(z.object({ a: z.number() }).transform((v) => ({ b: v.a })))).toBeUndefined();
    expect(argumentNames(z.looseObject({ a: z.number() }))).toBeUndefined();
    expect(argumentNames(z.record(z.string(), z.number()))).toBeUndefined();
  });
});
