/** Sizes past which input is treated as hostile rather than merely wrong. */
export const INPUT_LIMITS = {
  maxDepth: 32,
  maxStringLength: 10_000,
  maxArrayLength: 10_000,
  maxSteps: 5_000,
  maxKeysPerObject: 1_000,
  maxIdLength: 200,
} as const;

/** Keys that would let a JSON document reach an object's prototype. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
