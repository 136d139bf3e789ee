import fc from 'fast-check';

/**
 * Random MDSL across mistreevous 4.3.1's whole grammar, valid and not: every
 * node kind, both bracket kinds, every argument type, ranges, attributes with
 * `then`, comments, every line-end style, and the corners where verbtree differs
 * on purpose. Each such corner sets a flag naming the documented difference
 * (docs/capabilities.md, "How verbtree reads tree definitions"), so the differential test can
 * expect it explicitly.
 */

/** verbtree refuses these where mistreevous may accept them; each flag's reason is in verbtree's message. */
export const REFUSALS = {
  nonDecimal: 'as a decimal number',
  infinite: 'is not a finite number',
  commentInString: 'a string cannot hold "/*"',
  loneComma: "expected an argument but found ','",
  gluedComment: 'put a space before or after this comment',
  circular: 'circular branch',
} as const;
export type Refusal = keyof typeof REFUSALS;

/** One token as verbtree reads it, and as mistreevous gets it (they differ only in comments holding a lone CR). */
interface Piece {
  text: string;
  kind: 'word' | 'string' | 'punct' | 'comment' | 'space';
  refusal?: Refusal;
}

export interface GeneratedMdsl {
  verbtree: string;
  /** The same text with CR line ends inside comments as LF: mistreevous's comment pattern does not cross a CR. */
  mistreevous: string;
  refusals: Set<Refusal>;
}

const word = (text: string, refusal?: Refusal): Piece => ({ text, kind: 'word', refusal });
const punct = (text: string): Piece => ({ text, kind: 'punct' });

const keyword = (name: string): fc.Arbitrary<Piece> =>
  fc.constantFrom(name, name.toUpperCase(), name[0]!.toUpperCase() + name.slice(1)).map((text) => word(text));

const identifier = fc.constantFrom('a', 'b', 'go', 'dig_1', 'x', 'True', 'p', 'q').map((text) => word(text));
const NUMBERS: [string, Refusal?][] = [
  ['0'],
  ['1'],
  ['2'],
  ['3'],
  ['5'],
  ['10'],
  ['-1'],
  ['1.5'],
  ['1.0'],
  ['7.'],
  ['.5'],
  ['+3'],
  ['-0'],
  ['007'],
  ['1e3'],
  ['2e0'],
  ['1_0'],
  ['0x10', 'nonDecimal'],
  ['0b11', 'nonDecimal'],
  ['0o7', 'nonDecimal'],
  ['Infinity', 'infinite'],
  ['-Infinity', 'infinite'],
];
const smallCount = fc.constantFrom('0', '1', '2', '3', '5').map((text) => word(text));
const number = fc.oneof(
  { arbitrary: smallCount, weight: 12 },
  { arbitrary: fc.constantFrom(...NUMBERS).map(([text, refusal]) => word(text, refusal)), weight: 1 },
);
/**
 * Counts lean on the forms whose wholeness is a question: `1e3` (not whole to mistreevous), `1.0`, `7.`, `+3`, `-0`.
 */
const countNumber = fc.oneof(
  { arbitrary: smallCount, weight: 5 },
  {
    arbitrary: fc
      .constantFrom('1e3', '2e0', '1e1', '3e0', '1.0', '7.', '+3', '-0', '007', '1.5')
      .map((text) => word(text)),
    weight: 3,
  },
  { arbitrary: number, weight: 1 },
);

const stringPart = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      'a',
      'b',
      ' ',
      '7',
      ',',
      '[',
      ']',
      '(',
      ')',
      '{',
      '}',
      '\\"',
      '\\n',
      '\n',
      '\r\n',
      ' */ ',
      'then',
      '$x',
    ),
    weight: 60,
  },
  { arbitrary: fc.constant('/*'), weight: 1 },
);
const stringPiece: fc.Arbitrary<Piece> = fc.array(stringPart, { maxLength: 6 }).map((parts) => {
  const body = parts.join('');
  return { text: `"${body}"`, kind: 'string', refusal: body.includes('/*') ? 'commentInString' : undefined };
});

const argument: fc.Arbitrary<Piece> = fc.oneof(
  { arbitrary: stringPiece, weight: 3 },
  { arbitrary: number, weight: 3 },
  { arbitrary: fc.constantFrom('true', 'false', 'null', '$goal', '$a1', '$x-y').map((text) => word(text)), weight: 2 },
  { arbitrary: fc.constantFrom('True', '$', '$1', 'go').map((text) => word(text)), weight: 1 },
);

/** `[a, b]` or `(a, b)`, now and then with a trailing comma, a lone comma, a missing comma or a mismatched bracket. */
function argumentList(items: fc.Arbitrary<Piece[]>): fc.Arbitrary<Piece[]> {
  return fc
    .tuple(
      items,
      fc.constantFrom('[', '('),
      fc.oneof(
        { arbitrary: fc.constant('plain'), weight: 30 },
        { arbitrary: fc.constant('trailing'), weight: 5 },
        { arbitrary: fc.constantFrom('lone', 'double', 'missing', 'mismatch'), weight: 1 },
      ),
    )
    .map(([args, open, shape]) => {
      const close = (open === '[') !== (shape === 'mismatch') ? ']' : ')';
      if (shape === 'lone') return [punct(open), punct(','), punct(close)];
      const body: Piece[] = [];
      args.forEach((arg, i) => {
        if (i > 0 && shape !== 'missing') body.push(punct(','));
        if (i > 0 && shape === 'double') body.push(punct(','));
        body.push(arg);
      });
      if (shape === 'trailing' && args.length > 0) body.push(punct(','));
      return [punct(open), ...body, punct(close)];
    });
}

const call = (args: fc.Arbitrary<Piece[]>): fc.Arbitrary<Piece[]> =>
  argumentList(
    fc
      .tuple(fc.oneof({ arbitrary: identifier, weight: 30 }, { arbitrary: argument, weight: 1 }), args)
      .map(([name, rest]) => [name, ...rest]),
  );

const badThen = fc.constantFrom<Piece[]>(
  [{ text: '"then"', kind: 'string' }, word('succeed')],
  [word('then'), { text: '"fail"', kind: 'string' }],
  [word('then'), word('maybe')],
  [word('then'), word('fail')],
);
const attribute: fc.Arbitrary<Piece[]> = fc
  .constantFrom('while', 'until', 'entry', 'exit', 'step')
  .chain((kind) =>
    fc.tuple(
      keyword(kind),
      call(fc.array(argument, { maxLength: 2 })),
      // `then succeed|fail` follows guards only.
      kind === 'while' || kind === 'until'
        ? fc.oneof(
            {
              arbitrary: fc.constantFrom<Piece[]>([], [word('then'), word('succeed')], [word('THEN'), word('Fail')]),
              weight: 12,
            },
            { arbitrary: badThen, weight: 2 },
          )
        : fc.oneof({ arbitrary: fc.constant<Piece[]>([]), weight: 12 }, { arbitrary: badThen, weight: 2 }),
    ),
  )
  .map(([name, args, then]) => [name, ...args, ...then]);
const attributes = fc
  .oneof(
    { arbitrary: fc.constant([]), weight: 3 },
    { arbitrary: fc.array(attribute, { minLength: 1, maxLength: 2 }), weight: 1 },
  )
  .map((list) => list.flat());

/** A node's count or duration arguments: none, `[n]`, `[min, max]` (now and then reversed), rarely three. */
const counts = fc.oneof(
  { arbitrary: fc.constant<Piece[][]>([]), weight: 4 },
  { arbitrary: fc.array(countNumber, { minLength: 1, maxLength: 2 }).map((list) => [list]), weight: 8 },
  { arbitrary: fc.array(countNumber, { minLength: 0, maxLength: 3 }).map((list) => [list]), weight: 1 },
);
const maybeArguments = (lists: fc.Arbitrary<Piece[][]>): fc.Arbitrary<Piece[]> =>
  lists.chain((list) => (list.length === 0 ? fc.constant([]) : argumentList(fc.constant(list[0]!))));

interface Tree {
  pieces: Piece[];
  refs: string[];
}

const leaf: fc.Arbitrary<Tree> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('action', 'condition').chain(keyword),
      call(fc.array(argument, { maxLength: 3 })),
      attributes,
    )
    .map(([k, args, attrs]) => ({ pieces: [k, ...args, ...attrs], refs: [] })),
  fc
    .tuple(keyword('wait'), maybeArguments(counts), attributes)
    .map(([k, args, attrs]) => ({ pieces: [k, ...args, ...attrs], refs: [] })),
  fc
    .tuple(
      keyword('branch'),
      fc.constantFrom('p', 'q', 'r', 'r', 'r', 'r'),
      fc.constantFrom('[', '('),
      fc.oneof(
        { arbitrary: fc.constant<Piece[][]>([]), weight: 20 },
        { arbitrary: fc.constant([[word('while'), punct('('), word('a'), punct(')')]]), weight: 1 },
      ),
    )
    .map(([k, ref, open, attrs]) => ({
      pieces: [k, punct(open), word(ref), punct(open === '[' ? ']' : ')'), ...attrs.flat()],
      refs: [ref],
    })),
);

const node: fc.Memo<Tree> = fc.memo((depth) => {
  if (depth <= 1) return leaf;
  const child = node(depth - 1);
  const block = (head: fc.Arbitrary<Piece[]>, children: fc.Arbitrary<Tree[]>): fc.Arbitrary<Tree> =>
    fc.tuple(head, attributes, children).map(([h, attrs, kids]) => ({
      pieces: [...h, ...attrs, punct('{'), ...kids.flatMap((kid) => kid.pieces), punct('}')],
      refs: kids.flatMap((kid) => kid.refs),
    }));
  const oneChild = fc.oneof(
    { arbitrary: fc.array(child, { minLength: 1, maxLength: 1 }), weight: 20 },
    { arbitrary: fc.array(child, { maxLength: 2 }), weight: 1 },
  );
  const someChildren = fc.oneof(
    { arbitrary: fc.array(child, { minLength: 1, maxLength: 3 }), weight: 20 },
    { arbitrary: fc.constant<Tree[]>([]), weight: 1 },
  );
  // Lotto weights, one per child mostly.
  const lotto = someChildren.chain((kids) =>
    fc
      .oneof(
        { arbitrary: fc.constant<Piece[][]>([]), weight: 2 },
        {
          arbitrary: fc.array(smallCount, { minLength: kids.length, maxLength: kids.length }).map((w) => [w]),
          weight: 6,
        },
        // One weight too many or too few.
        {
          arbitrary: fc
            .array(smallCount, { minLength: kids.length + 1, maxLength: kids.length + 1 })
            .map((w) => [w.slice(kids.length > 1 && w.length % 2 === 0 ? 2 : 0)]),
          weight: 2,
        },
      )
      .chain((weights) =>
        block(
          fc.tuple(keyword('lotto'), maybeArguments(fc.constant(weights))).map(([k, a]) => [k, ...a]),
          fc.constant(kids),
        ),
      ),
  );
  return fc.oneof(
    { arbitrary: leaf, weight: 3 },
    {
      arbitrary: block(
        fc
          .constantFrom('succeed', 'fail', 'flip')
          .chain(keyword)
          .map((k) => [k]),
        oneChild,
      ),
      weight: 2,
    },
    {
      arbitrary: block(
        fc.tuple(fc.constantFrom('repeat', 'retry').chain(keyword), maybeArguments(counts)).map(([k, a]) => [k, ...a]),
        oneChild,
      ),
      weight: 2,
    },
    {
      arbitrary: block(
        fc
          .constantFrom('sequence', 'selector', 'parallel', 'race', 'all')
          .chain(keyword)
          .map((k) => [k]),
        someChildren,
      ),
      weight: 3,
    },
    { arbitrary: lotto, weight: 1 },
  );
});

const root = (id: string | undefined): fc.Arbitrary<Tree & { id: string | undefined }> =>
  fc.tuple(keyword('root'), attributes, node(4)).map(([k, attrs, body]) => ({
    id,
    pieces: [
      k,
      ...(id === undefined ? [] : [punct('['), word(id), punct(']')]),
      ...attrs,
      punct('{'),
      ...body.pieces,
      punct('}'),
    ],
    refs: body.refs,
  }));

const separator = fc.oneof(
  { arbitrary: fc.constantFrom(' ', '\n', '\r\n', '\r', '\t', '  \n  ', '\n\r'), weight: 60 },
  { arbitrary: fc.constant(''), weight: 10 },
  { arbitrary: fc.constantFrom(' /* a\nb */ ', '\r/*\r\n x \r*/ ', ' /* "quoted" { */\n'), weight: 2 },
  { arbitrary: fc.constantFrom('/* note */', '/**/'), weight: 1 },
);

/** Whether the roots' branches loop among themselves (verbtree refuses a loop wherever it is). */
function loops(roots: { id: string | undefined; refs: string[] }[]): boolean {
  const byId = new Map(roots.filter((r) => r.id !== undefined).map((r) => [r.id!, r.refs]));
  const visit = (id: string, path: string[]): boolean =>
    path.includes(id) || (byId.get(id) ?? []).some((ref) => byId.has(ref) && visit(ref, [...path, id]));
  return [...byId.keys()].some((id) => visit(id, []));
}

export const generatedMdsl: fc.Arbitrary<GeneratedMdsl> = fc
  .tuple(
    fc.oneof(
      {
        arbitrary: fc.constantFrom<(string | undefined)[]>(
          [undefined],
          [undefined, 'p'],
          ['q', undefined, 'p'],
          [undefined, 'p', 'q'],
        ),
        weight: 12,
      },
      {
        arbitrary: fc.constantFrom<(string | undefined)[]>([undefined, undefined], ['p'], [undefined, 'p', 'p']),
        weight: 1,
      },
    ),
    fc.infiniteStream(separator),
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 12 }, { arbitrary: fc.nat(), weight: 1 }),
  )
  .chain(([ids, separators, dropAt]) =>
    fc.tuple(...ids.map(root)).map((roots) => {
      let pieces = roots.flatMap((r) => r.pieces);
      const circular = loops(roots);
      // Now and then a piece goes missing (a brace, a comma, a keyword): as long as no branch loop rides on it.
      if (dropAt !== undefined && !circular) pieces = pieces.filter((_, i) => i !== dropAt % pieces.length);
      return join(pieces, separators, circular);
    }),
  );

function join(pieces: Piece[], separators: Iterator<string>, circular: boolean): GeneratedMdsl {
  const refusals = new Set<Refusal>(pieces.flatMap((p) => (p.refusal ? [p.refusal] : [])));
  if (circular) refusals.add('circular');
  // A list that opens with a comma (also after a dropped piece): mistreevous takes the comma as the first argument.
  if (pieces.some((piece, i) => (piece.text === '[' || piece.text === '(') && pieces[i + 1]?.text === ','))
    refusals.add('loneComma');
  let verbtree = '';
  let mistreevous = '';
  pieces.forEach((piece, i) => {
    if (i > 0) {
      let gap = separators.next().value as string;
      const previous = pieces[i - 1]!;
      const touching = previous.kind !== 'punct' && piece.kind !== 'punct';
      // Two words or strings with nothing between would be one token.
      if (gap === '' && touching) gap = ' ';
      if (gap.startsWith('/*') && gap.endsWith('*/') && touching) refusals.add('gluedComment');
      verbtree += gap;
      mistreevous += gap.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/\r\n?/g, '\n'));
    }
    verbtree += piece.text;
    mistreevous += piece.text;
  });
  return { verbtree, mistreevous, refusals };
}
