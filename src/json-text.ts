/**
 * The text without a leading UTF-8 byte order mark (U+FEFF), which is not part of the JSON: files saved by some editors
 * carry one.
 */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
