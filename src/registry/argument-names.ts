import type { z } from 'zod';

interface SchemaDef {
  type: string;
  shape?: Record<string, unknown>;
  catchall?: { _zod: { def: SchemaDef } };
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
  options?: readonly unknown[];
  left?: unknown;
  right?: unknown;
}

const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'nonoptional', 'readonly', 'catch']);

/**
 * The argument names a step's parsed arguments can hold, as a tree's `$name` reads them; undefined when the
 * schema cannot say (a transform's output, a record, an object that keeps unknown keys).
 * Reads zod's definition rather than using `instanceof`, so a schema built by the user's own copy of zod works.
 */
export function argumentNames(schema: z.ZodType): string[] | undefined {
  const names = namesOf(schema, 0);
  return names && [...new Set(names)].sort();
}

function namesOf(schema: unknown, depth: number): string[] | undefined {
  const def = (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;
  if (!def || depth > 20) return undefined;
  if (def.type === 'object') {
    if (def.catchall && def.catchall._zod.def.type !== 'never') return undefined;
    return Object.keys(def.shape ?? {});
  }
  if (WRAPPERS.has(def.type)) return namesOf(def.innerType, depth + 1);
  // A pipe's output is what the tree sees: z.preprocess(fn, object) keeps the object's names; object.transform(fn)
  // hides them.
  if (def.type === 'pipe') return namesOf(def.out, depth + 1);
  const parts =
    def.type === 'union' ? (def.options ?? []) : def.type === 'intersection' ? [def.left, def.right] : undefined;
  if (!parts) return undefined;
  const names: string[] = [];
  for (const part of parts) {
    const found = namesOf(part, depth + 1);
    if (!found) return undefined;
    names.push(...found);
  }
  return names;
}
