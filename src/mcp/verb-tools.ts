import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AnyCapabilitySpec } from '../registry/capability-spec.js';
import type { CapabilityRegistry } from '../registry/registry.js';

/** The actuators that destroy what they touch: a block broken, a mob killed. */
const DESTRUCTIVE_ACTUATORS = new Set<string>(['dig', 'attack']);

/** How a verb tool's arguments carry the verb's own: beside `bot` (an object schema), or under `args`. */
export type ArgumentsShape = 'inline' | 'nested';

/** One verb as an MCP tool: the tool, and how to read a call's arguments back into the step's. */
export interface VerbTool {
  verb: string;
  /** The version a step without `version` resolves to: the one the tool's schema and description show. */
  spec: AnyCapabilitySpec;
  shape: ArgumentsShape;
  tool: Tool;
}

const BOT_PROPERTY = {
  type: 'string',
  description: 'The bot to act with (list_bots names them); default the first.',
} as const;

/** The verb's arguments as JSON Schema, as `verbtree registry --json` exports them (zod's own conversion). */
function verbJsonSchema(spec: AnyCapabilitySpec): Record<string, unknown> {
  return z.toJSONSchema(spec.inputSchema, { io: 'input', unrepresentable: 'any' });
}

/** True when the verb's own tree destroys blocks or mobs: it names `dig` or `attack` among its actuators. */
export const destroys = (spec: AnyCapabilitySpec): boolean =>
  (spec.actuators ?? []).some((name) => DESTRUCTIVE_ACTUATORS.has(name));

/**
 * A tool per verb of the registry (built-in and the project's own), named by the verb: its input is the verb's JSON
 * Schema plus an optional `bot` (or, when the verb's arguments are not a plain object or take a `bot` of their
 * own, `{ args, bot }`); its description is the capability's; its annotations say it changes the world, and
 * whether it destroys blocks or mobs.
 */
export function verbTools(registry: CapabilityRegistry): VerbTool[] {
  return registry.verbs().flatMap((verb) => {
    const resolved = registry.resolve(verb);
    if (!resolved.ok) return [];
    const { spec } = resolved;
    const schema = verbJsonSchema(spec);
    const properties = schema.properties as Record<string, unknown> | undefined;
    const shape: ArgumentsShape =
      schema.type === 'object' && properties && !('bot' in properties) ? 'inline' : 'nested';
    const inputSchema: Tool['inputSchema'] =
      shape === 'inline'
        ? {
            ...schema,
            type: 'object' as const,
            properties: { ...(properties as Record<string, object>), bot: BOT_PROPERTY },
          }
        : {
            type: 'object' as const,
            properties: { args: schema, bot: BOT_PROPERTY },
            required: ['args'],
            additionalProperties: false,
          };
    return [
      {
        verb,
        spec,
        shape,
        tool: {
          name: verb,
          title: verb.replaceAll('_', ' '),
          description: describeVerb(spec),
          inputSchema,
          annotations: {
            title: verb.replaceAll('_', ' '),
            readOnlyHint: false,
            destructiveHint: destroys(spec),
            idempotentHint: false,
            openWorldHint: true,
          },
        },
      },
    ];
  });
}

function describeVerb(spec: AnyCapabilitySpec): string {
  const seconds = Math.max(1, Math.round(spec.expectedDurationMs / 1000));
  return [
    spec.description,
    `(verbtree ${spec.name}@${spec.version}, usually about ${seconds} s${spec.deprecated ? `; deprecated: ${spec.deprecated}` : ''}.)`,
    'Runs as one step on the bot. It answers ok only once its effects are confirmed in the world, naming what was verified;',
    'a failure answers with its code, whether a retry may help, what was unmet and the evidence.',
    'A call still running after the server\'s block time answers { status: "running", planId }: follow it with get_run.',
  ].join(' ');
}
