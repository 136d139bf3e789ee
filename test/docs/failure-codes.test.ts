import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILURE_CODE_LIST } from '../../src/contracts/failure-codes.js';

const root = join(import.meta.dirname, '..', '..');
/** The failure codes guide: the table of every code, from its title to its end. */
const guide = readFileSync(join(root, 'docs', 'failure-codes.md'), 'utf8');

/** Codes written as `code` in a text. */
function codesIn(text: string): Set<string> {
  return new Set([...text.matchAll(/`([a-z_.]+)`/g)].map((m) => m[1]!));
}

describe('the failure codes guide (docs/failure-codes.md)', () => {
  it('name every code a failure can carry, and no code that does not exist', () => {
    const listed = codesIn(guide);
    const missing = FAILURE_CODE_LIST.filter((code) => !listed.has(code));
    expect(missing, 'codes in src/contracts/failure-codes.ts the guide does not list').toEqual([]);
    const known = new Set<string>(FAILURE_CODE_LIST);
    const unknown = [...listed].filter((code) => code.includes('_') || code.includes('.')).filter((c) => !known.has(c));
    expect(unknown, 'codes the guide lists that FAILURE_CODES lacks').toEqual([]);
  });
});
