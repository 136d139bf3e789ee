import { expect } from 'vitest';

/**
 * Vitest's asymmetric matchers, typed `unknown`. Vitest types them `any` so they fit any slot of an expected value,
 * and an `any` inside an object or array literal is what no-unsafe-assignment is there to catch; `unknown` fits the
 * same slots of toEqual and toMatchObject. Use these inside an expected object or array, as in
 * `{ detail: match.stringContaining('reach') }`; a matcher passed straight to toEqual may stay `expect.…`.
 */
export const match = {
  any: (type: unknown): unknown => expect.any(type),
  stringContaining: (text: string): unknown => expect.stringContaining(text),
  stringMatching: (pattern: string | RegExp): unknown => expect.stringMatching(pattern),
  arrayContaining: (items: unknown[]): unknown => expect.arrayContaining(items),
  objectContaining: (object: object): unknown => expect.objectContaining(object),
  toSatisfy: <T>(predicate: (value: T) => boolean, message?: string): unknown => expect.toSatisfy(predicate, message),
};
