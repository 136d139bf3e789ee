import fc from 'fast-check';
import { z } from 'zod';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};

const SMALL = 1_000;

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const low =
    schema.minimum ??
    (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : Number.EPSILON * 8) : -SMALL);
  const high =
    schema.maximum ??
    (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (integer ? 1 : Number.EPSILON * 8) : SMALL);
  if (integer) return fc.integer({ min: Math.ceil(low), max: Math.floor(high) });
  return fc
    .double({ min: low, max: high, noNaN: true, noDefaultInfinity: true })
    .filter((n) => n > (schema.exclusiveMinimum ?? -Infinity));
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 24, 64);
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= maxLength);
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
}

function fromJsonSchema(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map(fromJsonSchema));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringArbitrary(schema);
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? fromJsonSchema(schema.items) : fc.jsonValue(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 8),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, fromJsonSchema(sub)])),
        { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) },
      );
      return record;
    }
    default:
      return fc.jsonValue();
  }
}

/**
 * Values that satisfy a zod schema, generated from its JSON Schema and then
 * filtered through the schema itself, so refinements hold too.
 */
export function arbitraryFor<Schema extends z.ZodType>(schema: Schema): fc.Arbitrary<z.input<Schema>> {
  const jsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return fromJsonSchema(jsonSchema).filter((value) => schema.safeParse(value).success) as fc.Arbitrary<z.input<Schema>>;
}

/**
 * Arguments as a capability receives them (`z.output`: defaults filled in, transforms applied): what a
 * guard, `expect` or acceptance takes. `arbitraryFor` gives what a planner may write (`z.input`).
 */
export function arbitraryOutputFor<Schema extends z.ZodType>(schema: Schema): fc.Arbitrary<z.output<Schema>> {
  return arbitraryFor(schema).map((value) => schema.parse(value));
}
