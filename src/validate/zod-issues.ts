import type { z } from 'zod';
import { closestMatch } from '../registry/suggest.js';
import { type JsonPath, type ValidationIssue, issueAt } from './issue.js';

type ZodIssue = z.core.$ZodIssue;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const EXAMPLES: Record<string, string> = {
  number: '3',
  string: '"text"',
  boolean: 'true',
  object: '{ … }',
  array: '[ … ]',
  int: '3',
};

/** Turns a zod issue into a message that names the field and says how to fix it. */
function explain(
  issue: ZodIssue,
  input: unknown,
  knownKeys: readonly string[],
): { message: string; suggestion?: string } {
  switch (issue.code) {
    case 'invalid_type': {
      const received = valueAt(input, issue.path);
      const example = EXAMPLES[issue.expected] ?? issue.expected;
      if (received === undefined) return { message: `is required: add it as a ${issue.expected}, e.g. ${example}` };
      return {
        message: `expected ${issue.expected}, got ${describe(received)}; give a ${issue.expected}, e.g. ${example}`,
      };
    }
    case 'unrecognized_keys': {
      const [key] = issue.keys;
      const suggestion = key === undefined ? undefined : closestMatch(key, knownKeys);
      const hint = suggestion
        ? `; did you mean "${suggestion}"?`
        : knownKeys.length
          ? `; allowed fields: ${knownKeys.join(', ')}`
          : '';
      return {
        message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}: remove ${issue.keys.length > 1 ? 'them' : 'it'}${hint}`,
        ...(suggestion ? { suggestion } : {}),
      };
    }
    case 'invalid_value':
      return {
        message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}; got ${describe(valueAt(input, issue.path))}`,
      };
    case 'invalid_union':
      if ('discriminator' in issue && issue.discriminator) {
        const options = (issue as unknown as { options?: unknown[] }).options ?? [];
        return {
          message: `"${issue.discriminator}" must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`,
        };
      }
      return { message: 'matches none of the allowed shapes; see `verbtree registry --schema` for the contract' };
    case 'too_small':
      if (issue.origin === 'array' && issue.minimum === 1)
        return {
          message:
            'is empty: it needs at least one item (a plan needs at least one step; an empty plan has nothing to verify)',
        };
      return {
        message: `is too small: must be ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`,
      };
    case 'too_big':
      return {
        message: `is too large: must be ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}${issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''}`,
      };
    case 'invalid_format':
      return { message: `${issue.message.replace(/^Invalid\s*/i, 'must be a valid ')}` };
    default:
      return { message: issue.message };
  }
}

/**
 * Zod issues under `base` (a JSON path inside the plan), as validation issues with messages a planner author can act
 * on.
 */
export function fromZodIssues(
  issues: readonly ZodIssue[],
  input: unknown,
  base: JsonPath,
  knownKeysAt: (path: readonly PropertyKey[]) => readonly string[] = () => [],
): ValidationIssue[] {
  return issues.map((issue) => {
    const path = [...base, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    const { message, suggestion } = explain(issue, input, knownKeysAt(issue.path));
    return issueAt('schema_violation', path, message, suggestion ? { suggestion } : {});
  });
}

/** The field names a zod object schema declares at `path`, for "did you mean" hints. */
export function declaredKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: unknown = schema;
  for (const key of path) {
    const shape = (current as { shape?: Record<string, unknown> }).shape;
    if (!shape || typeof key !== 'string') return [];
    current = unwrap(shape[key]);
  }
  const shape = (unwrap(current) as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

function unwrap(schema: unknown): unknown {
  let current = schema as { def?: { innerType?: unknown } } | undefined;
  for (let i = 0; i < 5 && current; i++) {
    const inner = current.def?.innerType;
    if (!inner) break;
    current = inner;
  }
  return current;
}
