import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { systemClock } from '../clock/system-clock.js';
import type { Clock } from '../contracts/clock.js';
import type { ExecutorEvent } from '../executor/events.js';
import { LocalBots, type BotAccess } from '../operations/bot-access.js';
import type { Operations } from '../operations/operations.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import type { ClientEscalations } from './escalation.js';
import { PROGRESS_PER_SECOND } from './progress.js';
import { SessionResources } from './resources.js';
import type { CallContext } from './run-call.js';
import { RunWatch } from './run-watch.js';
import { ToolCatalog } from './tools.js';

/** How long a tool call waits for its run before answering with a running handle: well under a client's 60 s. */
export const DEFAULT_BLOCK_MS = 25_000;

export interface VerbtreeMcpOptions {
  operations: Operations;
  registry: CapabilityRegistry;
  /**
   * The bots the operations act on: this process's (`LocalBots`), or a fleet's (`FleetBots`: held by workers in other
   * processes, every tool naming its bot).
   */
  bots: BotAccess;
  clock?: Clock;
  blockMs?: number;
  progressPerSecond?: number;
  /** With `--escalate-to-client`: the planner holding failed steps for the client (give it to the bots' executors). */
  escalations?: ClientEscalations;
  /** The server's version, as the client sees it in `initialize`. */
  version?: string;
}

const INSTRUCTIONS = `verbtree drives Minecraft bots. Each verb is a tool that runs one verified step: an ok answer names what
was confirmed in the world (not what was attempted); a failure is an error result with a code from a closed set, whether a
retry may help, what was unmet, and the evidence. run_plan runs several steps; validate_plan checks a plan without moving.
A call not done within the server's block time answers { status: "running", planId }: follow it with get_run (waitMs), stop
it with cancel_run. Cancelling a call that runs a step cancels that step; observe shows the world as it is.`;

const FLEET_INSTRUCTIONS = `This server is a gateway to a fleet: each bot is held by a worker process elsewhere, so every tool that acts
names its bot (list_bots names them, with their holders). A plan is queued for the bot's holder and its answer is read from
the shared journal; observe answers what the bot's holder last reported.`;

/**
 * verbtree as an MCP server: an adapter over the operations, as the HTTP API is. One instance serves every
 * session (stdio has one; Streamable HTTP one per client), which share its runs and their watch.
 */
export class VerbtreeMcp {
  readonly watch = new RunWatch();
  private readonly catalog: ToolCatalog;
  private readonly context: CallContext;
  private readonly sessions = new Set<{ server: McpServer; resources: SessionResources }>();
  private readonly detach: (() => void)[] = [];
  /** Aborted as the server closes: a call's wait for a fleet plan ends then. */
  private readonly closing = new AbortController();
  /** The tool calls under way, which close waits for. */
  private readonly calls = new Set<Promise<unknown>>();
  private readonly fleet: boolean;

  constructor(private readonly options: VerbtreeMcpOptions) {
    this.catalog = new ToolCatalog(options.registry);
    this.fleet = !(options.bots instanceof LocalBots);
    this.context = {
      ops: options.operations,
      bots: options.bots,
      fleet: this.fleet,
      closing: this.closing.signal,
      watch: this.watch,
      clock: options.clock ?? systemClock,
      blockMs: options.blockMs ?? DEFAULT_BLOCK_MS,
      progressPerSecond: options.progressPerSecond ?? PROGRESS_PER_SECOND,
      ...(options.escalations ? { escalations: options.escalations } : {}),
    };
    // Each bot's plan, for list_bots and the bot resources (a fleet's bots: their rows in the journal).
    const local: LocalBots | null = options.bots instanceof LocalBots ? (options.bots as LocalBots) : null;
    for (const bot of local?.list ?? []) {
      const listener = (event: ExecutorEvent) => local?.observe(bot, event);
      bot.events.on('event', listener);
      this.detach.push(() => bot.events.off('event', listener));
    }
    // A cancelled plan whose failure waits for the client ends now, not at the hold's timeout.
    const { escalations } = options;
    if (escalations)
      this.detach.push(
        this.watch.onChange(({ planId, event }) => {
          if (event.type === 'plan.cancelled') escalations.answer(planId, { giveUp: `cancelled: ${event.reason}` });
        }),
      );
  }

  /** A server for one session; connect it to its transport. */
  createSession(): McpServer {
    const mcp = new McpServer(
      { name: 'verbtree', version: this.options.version ?? '0.1.0' },
      {
        capabilities: { tools: {}, resources: { subscribe: true } },
        instructions: this.fleet ? `${INSTRUCTIONS}\n${FLEET_INSTRUCTIONS}` : INSTRUCTIONS,
      },
    );
    const { server } = mcp;
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: this.fleet ? this.catalog.fleetTools(await this.fleetBotNames()) : this.catalog.tools,
    }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const call = this.catalog.call(this.context, request.params.name, request.params.arguments, extra);
      this.calls.add(call);
      void call.catch(() => undefined).finally(() => this.calls.delete(call));
      return call;
    });
    const session = {
      server: mcp,
      resources: new SessionResources(server, { ...this.context, registry: this.options.registry }),
    };
    this.sessions.add(session);
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      session.resources.close();
      this.sessions.delete(session);
    };
    return mcp;
  }

  /** The fleet's bots now, as the journal lists them. */
  private async fleetBotNames(): Promise<string[]> {
    return (await this.options.operations.listBots()).map((b) => b.bot);
  }

  /**
   * Closes every session; on a fleet, then waits for the calls still under way (a call whose session closed cancels
   * its plan through the journal, which must be written before the journal closes). The runs and the bots are their
   * owner's to stop.
   */
  async close(): Promise<void> {
    for (const session of [...this.sessions]) {
      session.resources.close();
      await session.server.close();
    }
    this.sessions.clear();
    this.closing.abort();
    if (this.fleet) await Promise.allSettled([...this.calls]);
    for (const detach of this.detach.splice(0)) detach();
  }
}
