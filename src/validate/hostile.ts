import { FORBIDDEN_KEYS, INPUT_LIMITS } from '../contracts/limits.js';
import { type JsonPath, type ValidationIssue, issueAt } from './issue.js';

const MAX_REPORTED = 50;
/** Values visited at most: a JS object graph that shares sub-objects is walked once per path, so bound it. */
const MAX_VISITS = 1_000_000;

type Frame = { value: unknown; path: JsonPath } | { leave: object };

/**
 * Rejects what no schema should ever see: prototype-reaching keys, non-finite
 * numbers, non-JSON values, cycles, and sizes or depths past sane limits.
 * Iterative, so a deeply nested document cannot overflow the stack.
 */
export function findHostileInput(root: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  // The objects on the path from the root to here: meeting one again is a cycle; meeting a shared object elsewhere is
  // not.
  const ancestors = new Set<object>();
  const stack: Frame[] = [{ value: root, path: [] }];
  const report = (path: JsonPath, message: string) => issues.push(issueAt('schema_violation', path, message));
  let visits = 0;

  while (stack.length > 0 && issues.length < MAX_REPORTED) {
    const frame = stack.pop()!;
    if ('leave' in frame) {
      ancestors.delete(frame.leave);
      continue;
    }
    const { value, path } = frame;
    if (++visits > MAX_VISITS) {
      report([], `more than ${MAX_VISITS} values in all; send a smaller plan`);
      break;
    }
    switch (typeof value) {
      case 'string':
        if (value.length > INPUT_LIMITS.maxStringLength) {
          report(
            path,
            `string of ${value.length} characters is longer than the limit of ${INPUT_LIMITS.maxStringLength}; shorten it`,
          );
        }
        continue;
      case 'number':
        if (!Number.isFinite(value)) report(path, `${value} is not a finite number; use a finite number`);
        continue;
      case 'boolean':
        continue;
      case 'object':
        if (value === null) continue;
        break;
      default:
        report(path, `a ${typeof value} is not a JSON value; use a string, number, boolean, null, array or object`);
        continue;
    }
    if (path.length > INPUT_LIMITS.maxDepth) {
      report(path, `nested deeper than ${INPUT_LIMITS.maxDepth} levels; flatten the structure`);
      continue;
    }
    if (ancestors.has(value)) {
      report(path, 'refers back to one of its own ancestors (a cycle); JSON cannot contain cycles');
      continue;
    }
    ancestors.add(value);
    stack.push({ leave: value });
    if (Array.isArray(value)) {
      if (value.length > INPUT_LIMITS.maxArrayLength) {
        report(
          path,
          `array of ${value.length} items is longer than the limit of ${INPUT_LIMITS.maxArrayLength}; split it`,
        );
        continue;
      }
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
      continue;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      report(path, 'is not a plain JSON object; pass data parsed from JSON');
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > INPUT_LIMITS.maxKeysPerObject) {
      report(path, `object with ${keys.length} keys exceeds the limit of ${INPUT_LIMITS.maxKeysPerObject}`);
      continue;
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (FORBIDDEN_KEYS.has(key)) {
        report([...path, key], `the key "${key}" is forbidden (it can reach an object's prototype); remove it`);
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return issues;
}
