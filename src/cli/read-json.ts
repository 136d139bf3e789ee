import { readFile } from 'node:fs/promises';
import { CliUsageError } from './io.js';

/** Where in the text a JSON.parse error points, as "line L, column C". */
function locate(text: string, message: string): string {
  const position = /position (\d+)/.exec(message);
  if (!position) return '';
  const offset = Number(position[1]);
  const before = text.slice(0, offset).split('\n');
  return ` at line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/** Reads and parses a JSON file; unreadable files and syntax errors become usage errors naming the file and place. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String((error as Error).message);
    throw new CliUsageError(`cannot read ${path}: ${reason}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    throw new CliUsageError(`${path} is not valid JSON${locate(text, message)}: ${message}`);
  }
}
