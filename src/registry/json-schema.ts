import { z } from 'zod';
import type { CapabilityRegistry } from './registry.js';

export interface CapabilityJsonSchema {
  name: string;
  version: string;
  description: string;
  deprecated?: string;
  inputSchema: Record<string, unknown>;
}

/** Every capability's input as JSON Schema (zod's own conversion), ready for a planner's tool-calling. */
export function exportJsonSchemas(registry: CapabilityRegistry): CapabilityJsonSchema[] {
  return registry.verbs().flatMap((verb) =>
    registry.versions(verb).map((spec) => ({
      name: spec.name,
      version: spec.version,
      description: spec.description,
      ...(spec.deprecated ? { deprecated: spec.deprecated } : {}),
      inputSchema: z.toJSONSchema(spec.inputSchema, { io: 'input', unrepresentable: 'any' }),
    })),
  );
}
