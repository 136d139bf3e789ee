import fc from 'fast-check';

/**
 * Random mistreevous JSON definitions, valid and not: every node kind, ranges,
 * weights, arguments and attributes, with now and then a wrong value, a missing
 * key or a key in the wrong place. Where verbtree is stricter on purpose (docs/capabilities.md,
 * "How verbtree reads tree definitions") a flag names the refusal expected.
 */

export const JSON_REFUSALS = {
  unknownKey: 'mistreevous would ignore it',
  argumentType: 'each argument is a string, number, true/false, null or {"$": "name"}',
  succeedOnAbort: '"succeedOnAbort" must be true or false',
  circular: 'circular branch',
} as const;
export type JsonRefusal = keyof typeof JSON_REFUSALS;

interface Built {
  value: unknown;
  refusals: JsonRefusal[];
  refs: string[];
}

type Json = Record<string, unknown>;

/** Mostly `good`, now and then one of `bad`. */
function mostly<T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>, odds = 20): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: good, weight: odds }, { arbitrary: bad, weight: 1 });
}

type Arg = { value: unknown; refusal?: JsonRefusal };
const argument: fc.Arbitrary<Arg> = mostly<Arg>(
  fc
    .oneof<fc.Arbitrary<unknown>[]>(
      fc.string({ maxLength: 4 }),
      fc.integer({ min: -5, max: 50 }),
      fc.double({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom({ $: 'goal' }, { $: 'a1' }),
    )
    .map((value) => ({ value })),
  fc
    .constantFrom<unknown>({ x: 1 }, [1], { $: 'a', extra: 1 })
    .map((value) => ({ value, refusal: 'argumentType' as const })),
  60,
);
const args = fc
  .array(argument, { maxLength: 3 })
  .map((list) => ({ value: list.map((a) => a.value), refusals: list.flatMap((a) => (a.refusal ? [a.refusal] : [])) }));

const count = fc.integer({ min: 0, max: 5 });
const range = fc.oneof(
  {
    arbitrary: fc.oneof<fc.Arbitrary<unknown>[]>(
      count,
      fc.tuple(count, count).map(([a, b]) => [Math.min(a, b), Math.max(a, b)]),
    ),
    weight: 8,
  },
  { arbitrary: fc.tuple(count, count).map(([a, b]) => [Math.max(a, b) + 1, Math.min(a, b)]), weight: 1 },
  { arbitrary: fc.constantFrom<unknown>(-1, 1.5, [1, 2, 3], [1], '3', [-1, 2], [1, 2.5], null), weight: 1 },
);

const attribute = (kind: string): fc.Arbitrary<{ value: unknown; refusals: JsonRefusal[] }> => {
  const guard = kind === 'while' || kind === 'until';
  return fc
    .tuple(
      mostly<unknown>(fc.constantFrom('ready', 'a'), fc.constantFrom<unknown>('', 5, undefined)),
      fc.option(args, { nil: undefined }),
      guard
        ? fc.option(mostly<unknown>(fc.boolean(), fc.constantFrom<unknown>('yes', 1)), { nil: undefined })
        : fc.constant(undefined),
      mostly(fc.constant(false), fc.constant(true), 30),
    )
    .map(([call, argList, onAbort, extra]) => {
      const value: Json = {};
      if (call !== undefined) value.call = call;
      if (argList) value.args = argList.value;
      if (onAbort !== undefined) value.succeedOnAbort = onAbort;
      if (extra) value.note = 'x';
      const refusals: JsonRefusal[] = [...(argList?.refusals ?? [])];
      if (onAbort !== undefined && typeof onAbort !== 'boolean') refusals.push('succeedOnAbort');
      if (extra) refusals.push('unknownKey');
      return { value, refusals };
    });
};

type Attribute = { kind: string; value: unknown; refusals: JsonRefusal[] };
const attributes: fc.Arbitrary<Attribute[]> = fc
  .subarray(['while', 'until', 'entry', 'exit', 'step'], { maxLength: 2 })
  .chain((kinds) =>
    kinds.length === 0
      ? fc.constant<Attribute[]>([])
      : fc.tuple(...kinds.map((kind) => attribute(kind).map((a) => ({ kind, ...a })))),
  );

/** A key in the wrong place: mistreevous ignores it, verbtree refuses it. */
const strayKey = mostly(
  fc.constant<[string, unknown] | undefined>(undefined),
  fc.constantFrom<[string, unknown]>(
    ['attempts', 3],
    ['iterations', 2],
    ['children', []],
    ['call', 'a'],
    ['iteratons', 3],
    ['weights', [1]],
  ),
  40,
);

/** The keys each node type takes (so a stray key is one it does not). */
const OWN_KEYS: Record<string, string[]> = {
  root: ['id', 'child'],
  succeed: ['child'],
  fail: ['child'],
  flip: ['child'],
  repeat: ['iterations', 'child'],
  retry: ['attempts', 'child'],
  sequence: ['children'],
  selector: ['children'],
  parallel: ['children'],
  race: ['children'],
  all: ['children'],
  lotto: ['weights', 'children'],
  action: ['call', 'args'],
  condition: ['call', 'args'],
  wait: ['duration'],
  branch: ['ref'],
};

function finish(
  type: unknown,
  own: Json,
  children: Built[],
  attrs: Attribute[],
  stray: [string, unknown] | undefined,
  refusals: JsonRefusal[] = [],
): Built {
  const value: Json = { type, ...own };
  for (const a of attrs) value[a.kind] = a.value;
  const all = [...refusals, ...attrs.flatMap((a) => a.refusals), ...children.flatMap((c) => c.refusals)];
  if (stray && !(stray[0] in value) && !(OWN_KEYS[String(type)] ?? []).includes(stray[0])) {
    value[stray[0]] = stray[1];
    all.push('unknownKey');
  }
  return { value, refusals: all, refs: children.flatMap((c) => c.refs) };
}

const leaf: fc.Arbitrary<Built> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('action', 'condition'),
      mostly<unknown>(fc.constantFrom('a', 'go', 'dig_1'), fc.constantFrom<unknown>('', 3, undefined)),
      fc.option(mostly<unknown>(args, fc.constant({ value: 'x', refusals: [] })), { nil: undefined }),
      attributes,
      strayKey,
    )
    .map(([type, call, argList, attrs, stray]) => {
      const own: Json = {};
      if (call !== undefined) own.call = call;
      const list = argList as { value: unknown; refusals: JsonRefusal[] } | undefined;
      if (list) own.args = list.value;
      return finish(type, own, [], attrs, stray, list?.refusals);
    }),
  fc
    .tuple(fc.option(range, { nil: undefined }), attributes, strayKey)
    .map(([duration, attrs, stray]) => finish('wait', duration === undefined ? {} : { duration }, [], attrs, stray)),
  fc
    .tuple(
      mostly<unknown>(fc.constantFrom('p', 'q', 'r', 'r', 'r'), fc.constantFrom<unknown>('', 1)),
      mostly(fc.constant<Attribute[]>([]), attributes, 30),
    )
    .map(([ref, attrs]) => ({
      ...finish('branch', { ref }, [], attrs, undefined),
      refs: typeof ref === 'string' ? [ref] : [],
    })),
);

const node: fc.Memo<Built> = fc.memo((depth) => {
  if (depth <= 1) return leaf;
  const child = node(depth - 1);
  const decorator = fc
    .tuple(
      fc.constantFrom('succeed', 'fail', 'flip', 'repeat', 'retry'),
      mostly(
        child.map((c) => [c]),
        fc.constant<Built[]>([]),
      ),
      attributes,
      strayKey,
      fc.option(range, { nil: undefined }),
    )
    .map(([type, kids, attrs, stray, counts]) => {
      const own: Json = {};
      if (kids[0]) own.child = kids[0].value;
      if (counts !== undefined && type === 'repeat') own.iterations = counts;
      if (counts !== undefined && type === 'retry') own.attempts = counts;
      return finish(type, own, kids, attrs, stray);
    });
  const composite = fc
    .tuple(
      fc.constantFrom('sequence', 'selector', 'parallel', 'race', 'all', 'lotto'),
      mostly(fc.array(child, { minLength: 1, maxLength: 3 }), fc.constant<Built[]>([])),
      attributes,
      strayKey,
      fc.boolean(),
    )
    .chain(([type, kids, attrs, stray, weighted]) =>
      fc
        .oneof(
          { arbitrary: fc.array(count, { minLength: kids.length, maxLength: kids.length }), weight: 6 },
          {
            arbitrary: fc
              .array(count, { minLength: kids.length + 1, maxLength: kids.length + 1 })
              .map((w) => w.slice(w.length % 2 === 0 ? 2 : 0)),
            weight: 2,
          },
          { arbitrary: fc.constantFrom<unknown[]>([-1, 2], [1.5], ['1']), weight: 1 },
        )
        .map((weights) => {
          const own: Json = { children: kids.map((k) => k.value) };
          if (type === 'lotto' && weighted) own.weights = weights;
          return finish(type, own, kids, attrs, stray);
        }),
    );
  // Rarely a node of no type mistreevous knows, or a root below the top.
  const odd = fc
    .constantFrom<unknown>('sequense', '', 7, 'root')
    .map((type) => finish(type, type === 'root' ? { child: { type: 'action', call: 'a' } } : {}, [], [], undefined));
  return fc.oneof(
    { arbitrary: leaf, weight: 30 },
    { arbitrary: decorator, weight: 20 },
    { arbitrary: composite, weight: 30 },
    { arbitrary: odd, weight: 1 },
  );
});

const root = (id: unknown): fc.Arbitrary<Built & { id: unknown }> =>
  fc.tuple(node(4), attributes).map(([body, attrs]) => ({
    ...finish('root', { ...(id === undefined ? {} : { id }), child: body.value }, [body], attrs, undefined),
    id,
  }));

export interface GeneratedJson {
  definition: unknown;
  text: string;
  refusals: Set<JsonRefusal>;
}

export const generatedJson: fc.Arbitrary<GeneratedJson> = fc
  .tuple(
    mostly<unknown[]>(
      fc.constantFrom<unknown[]>([undefined], [undefined, 'p'], ['q', undefined, 'p']),
      fc.constantFrom<unknown[]>([undefined, undefined], ['p'], [undefined, ''], [undefined, 3], [undefined, 'p', 'p']),
      12,
    ),
    fc.boolean(),
    fc.constantFrom('\n', '\r\n', '\r'),
    fc.constantFrom(0, 2),
  )
  .chain(([ids, asArray, lineEnd, indent]) =>
    fc.tuple(...ids.map(root)).map((roots) => {
      const definition = roots.length === 1 && !asArray ? roots[0]!.value : roots.map((r) => r.value);
      const refusals = new Set(roots.flatMap((r) => r.refusals));
      if (loops(roots)) refusals.add('circular');
      return { definition, text: JSON.stringify(definition, null, indent).replace(/\n/g, lineEnd), refusals };
    }),
  );

function loops(roots: { id: unknown; refs: string[] }[]): boolean {
  const byId = new Map(roots.filter((r) => typeof r.id === 'string').map((r) => [r.id as string, r.refs]));
  const visit = (id: string, path: string[]): boolean =>
    path.includes(id) || (byId.get(id) ?? []).some((ref) => byId.has(ref) && visit(ref, [...path, id]));
  return [...byId.keys()].some((id) => visit(id, []));
}
