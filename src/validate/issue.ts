import type { FailureCode } from '../contracts/failure-codes.js';

export type JsonPath = readonly (string | number)[];

/** One problem with a plan, located precisely enough to fix without reading the validator. */
export interface ValidationIssue {
  code: FailureCode;
  /** JSON path from the plan's root, e.g. ["steps", 2, "args", "count"]. */
  path: JsonPath;
  /** The same path as text, e.g. `steps[2].args.count`. */
  where: string;
  message: string;
  stepIndex?: number;
  stepId?: string;
  suggestion?: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function formatPath(path: JsonPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) text += text ? `.${segment}` : segment;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text || '(root)';
}

export function issueAt(
  code: FailureCode,
  path: JsonPath,
  message: string,
  extra: Partial<ValidationIssue> = {},
): ValidationIssue {
  const stepIndex = path[0] === 'steps' && typeof path[1] === 'number' ? path[1] : undefined;
  return { code, path, where: formatPath(path), message, ...(stepIndex !== undefined ? { stepIndex } : {}), ...extra };
}
