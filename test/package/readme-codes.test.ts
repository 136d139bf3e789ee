import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILURE_CODE_LIST } from '../../src/contracts/failure-codes.js';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The README's "Failure codes" section: from its heading to the next heading of any level. */
function failureCodesSection(text: string): string {
  const start = text.indexOf('### Failure codes');
  expect(start, 'README.md has a "### Failure codes" section').toBeGreaterThanOrEqual(0);
  const rest = text.slice(start + 1);
  const next = rest.search(/\n#{1,6} /);
  return next < 0 ? rest : rest.slice(0, next);
}

/** Codes written as `code` in a text. */
function codesIn(text: string): Set<string> {
  return new Set([...text.matchAll(/`([a-z_.]+)`/g)].map((m) => m[1]!));
}

describe("the README's failure codes", () => {
  it('name every code a failure can carry, and no code that does not exist', () => {
    const listed = codesIn(failureCodesSection(readme));
    const missing = FAILURE_CODE_LIST.filter((code) => !listed.has(code));
    expect(missing, 'codes in src/contracts/failure-codes.ts the README does not list').toEqual([]);
    const known = new Set<string>(FAILURE_CODE_LIST);
    const unknown = [...listed].filter((code) => code.includes('_') || code.includes('.')).filter((c) => !known.has(c));
    expect(unknown, 'codes the README lists that FAILURE_CODES lacks').toEqual([]);
  });
});
