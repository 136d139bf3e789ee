import { readFile } from 'node:fs/promises';
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { withoutByteOrderMark } from '../json-text.js';
import { CliUsageError } from './io.js';

/**
 * Where the first syntax error is, as "line L, column C: what". JSON.parse's
 * messages on Node 20 often carry no position, so jsonc-parser (strict mode) locates it.
 */
function locate(text: string): string {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (!first) return '';
  const before = text.slice(0, first.offset).split('\n');
  return ` at line ${before.length}, column ${before.at(-1)!.length + 1} (${printParseErrorCode(first.error)})`;
}

/** Reads and parses a JSON file; unreadable files and syntax errors become usage errors naming the file and place. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String((error as Error).message);
    throw new CliUsageError(`cannot read ${path}: ${reason}`);
  }
  // Editors on Windows may start a UTF-8 file with a byte order mark; JSON.parse refuses it.
  text = withoutByteOrderMark(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    throw new CliUsageError(`${path} is not valid JSON${locate(text)}: ${message}`);
  }
}
