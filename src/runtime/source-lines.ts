/**
 * Line and column of an offset in a source text whose line ends may be LF,
 * CRLF or a lone CR (old Mac files): each of the three ends one line.
 */
export interface SourceLines {
  /** 1-based line of `offset`. */
  lineAt(offset: number): number;
  /** 1-based column of `offset` within its line. */
  columnAt(offset: number): number;
}

const LINE_END = /\r\n|\r|\n/g;

export function sourceLines(text: string): SourceLines {
  const starts = [0];
  for (const match of text.matchAll(LINE_END)) starts.push(match.index + match[0].length);
  const lineIndex = (offset: number): number => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  return {
    lineAt: (offset) => lineIndex(offset) + 1,
    columnAt: (offset) => offset - starts[lineIndex(offset)]! + 1,
  };
}
