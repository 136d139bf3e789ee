import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEMPLATE_ENV } from './postgres.js';

/**
 * vitest's global setup: a folder for the run's template cluster (test/helpers/postgres.ts fills it on the first
 * startPostgres and copies it after), named to the test files through the environment and removed after the run.
 * A run with no PostgreSQL test leaves it empty.
 */
export function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'verbtree-pg-template-'));
  process.env[TEMPLATE_ENV] = join(dir, 'data');
  return () => rmSync(dir, { recursive: true, force: true });
}
