import { randomUUID } from 'node:crypto';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { isOperationError } from '../operations/errors.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { closestMatch } from '../registry/suggest.js';
import { issueAt } from '../validate/issue.js';
import { callControlTool, controlTools, isControlTool } from './control-tools.js';
import { dataResult, invalidArgumentsResult, refusalResult } from './results.js';
import { driveRun, type CallContext, type CallExtra } from './run-call.js';
import { verbTools, type VerbTool } from './verb-tools.js';

/** Where a verb tool puts the caller's arguments in the one-step plan it runs: issues are named from there. */
const STEP_ARGS = ['steps', 0, 'args'] as const;

/** Every tool this server offers: one per verb, then the control tools. */
export class ToolCatalog {
  readonly verbs: Map<string, VerbTool>;
  readonly tools: Tool[];

  constructor(registry: CapabilityRegistry) {
    const control = controlTools();
    const clash = registry.verbs().filter((verb) => isControlTool(verb));
    if (clash.length > 0)
      throw new Error(
        `the verb${clash.length > 1 ? 's' : ''} ${clash.join(', ')} take${clash.length > 1 ? '' : 's'} the name of an MCP tool verbtree serves; rename ${clash.length > 1 ? 'them' : 'it'} in the project's capabilities`,
      );
    this.verbs = new Map(verbTools(registry).map((t) => [t.verb, t]));
    this.tools = [...[...this.verbs.values()].map((t) => t.tool), ...control];
  }

  /**
   * The tools as a fleet gateway lists them: every `bot` argument required, its description naming the fleet's bots
   * now (workers may add more: an unknown name's error names them again).
   */
  fleetTools(bots: readonly string[]): Tool[] {
    const description = `The fleet's bot to act with (required): ${bots.length > 0 ? `now ${bots.join(', ')}` : 'none yet (a worker adds one with --bot <name>)'}; list_bots shows each with its holder.`;
    return this.tools.map((tool) => {
      const properties = tool.inputSchema.properties;
      if (!properties?.bot) return tool;
      return {
        ...tool,
        inputSchema: {
          ...tool.inputSchema,
          properties: { ...properties, bot: { type: 'string', description } },
          required: [...(tool.inputSchema.required ?? []), 'bot'],
        },
      };
    });
  }

  /**
   * Answers one tool call. Whatever goes wrong for the caller is a result the model can read (isError with the
   * message), never a protocol error: bad arguments, an unknown tool, a refused operation.
   */
  async call(ctx: CallContext, name: string, args: unknown, extra: CallExtra): Promise<CallToolResult> {
    const verb = this.verbs.get(name);
    try {
      if (verb) return await callVerb(ctx, verb, args, extra);
      if (isControlTool(name)) return await callControlTool(ctx, name, args, extra);
    } catch (error) {
      if (isOperationError(error)) return refusalResult(error, verb ? STEP_ARGS : []);
      throw error;
    }
    const near = closestMatch(
      name,
      this.tools.map((t) => t.name),
    );
    return {
      ...dataResult(`no tool "${name}"${near ? `; did you mean "${near}"?` : ''}; tools/list names them`, {
        error: 'not_found',
        message: `no tool "${name}"`,
        ...(near ? { suggestion: near } : {}),
      }),
      isError: true,
    };
  }
}

/** A verb tool runs its arguments as a one-step plan, with generated ids that its answer names. */
async function callVerb(ctx: CallContext, verb: VerbTool, input: unknown, extra: CallExtra): Promise<CallToolResult> {
  const given = (input ?? {}) as Record<string, unknown>;
  const { bot, ...rest } = given;
  if (bot !== undefined && (typeof bot !== 'string' || bot.length === 0))
    return invalidArgumentsResult([
      issueAt(
        'schema_violation',
        ['bot'],
        'expected the name of a bot (list_bots names them), or leave it out for the first',
      ),
    ]);
  const stray = verb.shape === 'nested' ? Object.keys(rest).filter((key) => key !== 'args') : [];
  if (stray.length > 0)
    return invalidArgumentsResult(
      stray.map((key) =>
        issueAt('schema_violation', [key], `unknown field "${key}": the verb's arguments go under "args"`),
      ),
    );
  const args = verb.shape === 'inline' ? rest : rest.args;
  const planId = `${verb.verb}-${randomUUID().slice(0, 8)}`;
  const plan = { planId, intentId: `mcp-${planId}`, steps: [{ stepId: verb.verb, type: verb.verb, args: args ?? {} }] };
  return driveRun(ctx, extra, planId, bot, (o) => ctx.ops.run(plan, { ...o, ...(bot ? { bot } : {}) }));
}
