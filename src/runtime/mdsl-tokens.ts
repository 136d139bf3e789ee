import type { NodeArgument } from './tree-definition.js';

/** A syntax error in an MDSL source, with the line it is on. */
export class MdslSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'MdslSyntaxError';
  }
}

export interface Token {
  text: string;
  line: number;
  quoted: boolean;
  /** Leading whitespace of the token's line, to guess which '{' a stray '}' belongs to. */
  indent: number;
  /** The token is the first on its line. */
  firstOnLine: boolean;
}

export const PUNCTUATION = new Set(['(', ')', '{', '}', '[', ']', ',']);

/**
 * Splits MDSL into tokens, keeping each token's line. LF, CRLF and a lone CR
 * each end a line. Comments are skipped; a string keeps its text with every
 * `\"` unescaped.
 */
export function tokenise(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let lineStart = 0;
  let lineIndent = -1;
  let lineOfLastToken = 0;
  let lastCommentEnd = -1;
  let charBeforeComments: string | undefined;
  let i = 0;
  /** Counts the line ends in source[from, to) and remembers where the last line starts. */
  const passLines = (from: number, to: number): void => {
    for (const match of source.slice(from, to).matchAll(LINE_END)) {
      line++;
      lineStart = from + match.index + match[0].length;
      lineIndent = -1;
    }
  };
  const push = (text: string, quoted: boolean): void => {
    if (lineIndent < 0) {
      lineIndent = 0;
      while (source[lineStart + lineIndent] === ' ' || source[lineStart + lineIndent] === '\t') lineIndent++;
    }
    tokens.push({ text, line, quoted, indent: lineIndent, firstOnLine: lineOfLastToken !== line });
    lineOfLastToken = line;
  };
  while (i < source.length) {
    const char = source[i]!;
    if (char === '\n' || char === '\r') {
      const end = char === '\r' && source[i + 1] === '\n' ? i + 2 : i + 1;
      passLines(i, end);
      i = end;
    } else if (/\s/.test(char)) {
      i++;
    } else if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) throw new MdslSyntaxError(line, 'unterminated comment: add the closing */');
      const before = i === lastCommentEnd ? charBeforeComments : source[i - 1];
      if (gluesWords(before) && gluesWords(source[end + 2])) {
        throw new MdslSyntaxError(
          line,
          'put a space before or after this comment: mistreevous deletes comments, which would join the words on either side into one',
        );
      }
      if (i !== lastCommentEnd) charBeforeComments = before;
      passLines(i, end);
      i = end + 2;
      lastCommentEnd = i;
    } else if (char === '"') {
      const start = i;
      i++;
      while (i < source.length && source[i] !== '"') i += source[i] === '\\' ? 2 : 1;
      if (i >= source.length) throw new MdslSyntaxError(line, 'unterminated string: add the closing "');
      const raw = source.slice(start + 1, i);
      if (raw.includes('/*')) {
        throw new MdslSyntaxError(
          line,
          'a string cannot hold "/*": mistreevous strips comments before it reads strings, so it would cut the string there; split the text or leave out the /*',
        );
      }
      push(raw.replace(/\\"/g, '"'), true);
      passLines(start + 1, i);
      i++;
    } else if (PUNCTUATION.has(char)) {
      push(char, false);
      i++;
    } else {
      const start = i;
      while (
        i < source.length &&
        !/\s/.test(source[i]!) &&
        !PUNCTUATION.has(source[i]!) &&
        source[i] !== '"' &&
        !source.startsWith('/*', i)
      )
        i++;
      push(source.slice(start, i), false);
    }
  }
  return tokens;
}

const LINE_END = /\r\n|\r|\n/g;

/** A character that, next to another such across a deleted comment, makes one token of two. */
function gluesWords(char: string | undefined): boolean {
  return char !== undefined && !/\s/.test(char) && !PUNCTUATION.has(char);
}

export type ParsedArgument = { value: NodeArgument; identifier: boolean; integer: boolean; line: number };

/** Numbers mistreevous reads with parseFloat, so `0x10` would be 0 and `0b1` 0: verbtree refuses them. */
const NON_DECIMAL = /^[+-]?0[xXbBoO]/;

/**
 * One argument, read as mistreevous 4.3.1 reads it: null, true, false, a number
 * (whole when parseFloat and parseInt agree, so `1e3` is not whole), a string,
 * `$name` (a step argument), else an identifier.
 */
export function toArgument(token: Token): ParsedArgument {
  const base = { identifier: false, integer: false, line: token.line };
  if (token.quoted) return { ...base, value: token.text };
  const text = token.text;
  if (text === 'null') return { ...base, value: null };
  if (text === 'true' || text === 'false') return { ...base, value: text === 'true' };
  if (!Number.isNaN(Number(text))) {
    if (NON_DECIMAL.test(text)) {
      throw new MdslSyntaxError(
        token.line,
        `write ${text} as a decimal number (${Number(text)}): mistreevous reads hexadecimal, binary and octal numbers as 0`,
      );
    }
    if (!Number.isFinite(Number(text)))
      throw new MdslSyntaxError(token.line, `${text} is not a finite number; a JSON definition could not hold it`);
    const value = parseFloat(text);
    return { ...base, value, integer: value === parseInt(text, 10) };
  }
  // Like mistreevous, `$` and a letter start a step argument reference; the rest of the token is its name.
  if (/^\$[_a-zA-Z]/.test(text)) return { ...base, value: { $: text.slice(1) } };
  return { ...base, value: text, identifier: true };
}
