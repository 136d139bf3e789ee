import { withoutByteOrderMark } from '../../json-text.js';
import { readFile } from 'node:fs/promises';
import { declaredKeys, fromZodIssues } from '../../validate/zod-issues.js';
import type { ValidationIssue } from '../../validate/issue.js';
import { Scenario, ScenarioFields } from './schema.js';

/** A scenario file that cannot be used; `issues` name each bad field by JSON path with its fix. */
export class ScenarioError extends Error {
  constructor(
    readonly source: string,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`scenario ${source} is invalid:\n${issues.map((issue) => `  ${issue.where}: ${issue.message}`).join('\n')}`);
    this.name = 'ScenarioError';
  }
}

/** Validates a parsed scenario; `source` names it in errors (a file path or "inline"). */
export function parseScenario(value: unknown, source = 'inline'): Scenario {
  const result = Scenario.safeParse(value);
  if (result.success) return result.data;
  throw new ScenarioError(
    source,
    fromZodIssues(result.error.issues, value, [], (path) => declaredKeys(ScenarioFields, path)),
  );
}

export async function loadScenario(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file; check the path' : String(error);
    throw new ScenarioError(path, [{ code: 'schema_violation', path: [], where: '(file)', message: reason }]);
  }
  let json: unknown;
  try {
    // A UTF-8 byte order mark some editors write is not part of the JSON.
    json = JSON.parse(withoutByteOrderMark(text));
  } catch (error) {
    throw new ScenarioError(path, [
      {
        code: 'schema_violation',
        path: [],
        where: '(file)',
        message: `not valid JSON (${(error as Error).message}); fix the syntax`,
      },
    ]);
  }
  return parseScenario(json, path);
}
