import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { Clock, TimerHandle } from '../contracts/clock.js';
import { isOperationError } from '../operations/errors.js';
import type { Operations } from '../operations/operations.js';
import { exportJsonSchemas } from '../registry/json-schema.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import type { ClientEscalations } from './escalation.js';
import { verifiedOf } from './run-call.js';
import type { RunWatch } from './run-watch.js';

export interface ResourceContext {
  ops: Operations;
  registry: CapabilityRegistry;
  watch: RunWatch;
  clock: Clock;
  escalations?: ClientEscalations;
}

const BOTS = 'verbtree://bots';
const RUNS = 'verbtree://runs';
const REGISTRY = 'verbtree://registry';
const BOT_PREFIX = `${BOTS}/`;
const RUN_PREFIX = `${RUNS}/`;

/** At most this many updates a second per resource; the last one always goes out. */
const UPDATES_PER_SECOND = 4;
/** How often a subscribed bot's state is sampled for a change. */
const BOT_SAMPLE_MS = 1_000;

const botUri = (bot: string) => `${BOT_PREFIX}${encodeURIComponent(bot)}`;
const runUri = (planId: string) => `${RUN_PREFIX}${encodeURIComponent(planId)}`;

const STATIC: Resource[] = [
  {
    uri: BOTS,
    name: 'bots',
    description: 'The bots this server drives, with their state.',
    mimeType: 'application/json',
  },
  {
    uri: RUNS,
    name: 'runs',
    description: 'The runs under way here and the journal’s latest.',
    mimeType: 'application/json',
  },
  {
    uri: REGISTRY,
    name: 'registry',
    description: 'Every verb with its version and JSON Schema.',
    mimeType: 'application/json',
  },
];

/**
 * The resources of one MCP session: the bots, a bot's status, the runs, a run (updated as it goes and when it
 * ends), the registry; each can be subscribed to. Runs update from their events; a bot from its state sampled
 * each second while someone subscribes. Every resource is also a tool's answer (list_bots, get_run; the
 * registry is the tool list itself), for clients that never read resources.
 */
export class SessionResources {
  private readonly subscribed = new Set<string>();
  private readonly lastSent = new Map<string, number>();
  private readonly due = new Map<string, TimerHandle>();
  private readonly lastBots = new Map<string, string>();
  private sampler: TimerHandle | null = null;
  private closed = false;
  private readonly unwatch: () => void;

  constructor(
    private readonly server: Server,
    private readonly ctx: ResourceContext,
  ) {
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await this.list() }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: [
        { uriTemplate: `${BOT_PREFIX}{bot}`, name: 'bot', description: "A bot's state.", mimeType: 'application/json' },
        {
          uriTemplate: `${RUN_PREFIX}{planId}`,
          name: 'run',
          description: 'A run: status, steps, failure.',
          mimeType: 'application/json',
        },
      ],
    }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => this.read(request.params.uri));
    server.setRequestHandler(SubscribeRequestSchema, (request) => {
      this.subscribe(request.params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      this.unsubscribe(request.params.uri);
      return {};
    });
    this.unwatch = ctx.watch.onChange(({ planId, bot, event, ended }) => {
      this.changed(runUri(planId), ended);
      if (event.type === 'plan.accepted' || event.type === 'plan.ended') {
        this.changed(RUNS, ended);
        this.changed(botUri(bot), ended);
        this.changed(BOTS, ended);
      }
    });
  }

  close(): void {
    this.closed = true;
    this.unwatch();
    for (const timer of this.due.values()) this.ctx.clock.clearTimeout(timer);
    this.due.clear();
    if (this.sampler) this.ctx.clock.clearTimeout(this.sampler);
    this.sampler = null;
    this.subscribed.clear();
  }

  private async list(): Promise<Resource[]> {
    const bots = await this.ctx.ops.listBots();
    const runs = this.ctx.watch.live();
    return [
      ...STATIC,
      ...bots.map((b) => ({ uri: botUri(b.bot), name: `bot ${b.bot}`, mimeType: 'application/json' })),
      ...runs.map((r) => ({ uri: runUri(r.planId), name: `run ${r.planId}`, mimeType: 'application/json' })),
    ];
  }

  private async read(uri: string): Promise<ReadResourceResult> {
    try {
      const body = await this.body(uri);
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
    } catch (error) {
      if (isOperationError(error)) throw new McpError(ErrorCode.InvalidParams, error.message);
      throw error;
    }
  }

  private async body(uri: string): Promise<unknown> {
    const { ops } = this.ctx;
    if (uri === BOTS) return { bots: await ops.listBots() };
    if (uri === REGISTRY) return { capabilities: exportJsonSchemas(this.ctx.registry) };
    if (uri === RUNS) return { live: this.ctx.watch.live(), journal: await ops.listRuns({ limit: 50 }) };
    const bot = tail(uri, BOT_PREFIX);
    if (bot !== null) return ops.botStatus({ bot });
    const planId = tail(uri, RUN_PREFIX);
    if (planId !== null) {
      const view = await ops.getRun(planId);
      const held = this.ctx.escalations?.pending(planId);
      return { ...view, verified: await verifiedOf(this.ctx, view), ...(held ? { awaitingPlan: held } : {}) };
    }
    throw new McpError(
      ErrorCode.InvalidParams,
      `no resource ${uri}; resources/list and resources/templates/list name them`,
    );
  }

  private subscribe(uri: string): void {
    if (
      uri !== BOTS &&
      uri !== RUNS &&
      uri !== REGISTRY &&
      tail(uri, BOT_PREFIX) === null &&
      tail(uri, RUN_PREFIX) === null
    )
      throw new McpError(ErrorCode.InvalidParams, `no resource ${uri} to subscribe to; resources/list names them`);
    this.subscribed.add(uri);
    if (uri === BOTS || uri.startsWith(BOT_PREFIX)) this.sampleBots();
  }

  private unsubscribe(uri: string): void {
    this.subscribed.delete(uri);
    const timer = this.due.get(uri);
    if (timer) this.ctx.clock.clearTimeout(timer);
    this.due.delete(uri);
  }

  /** Tells the client a subscribed resource changed: at once, or at its next slot (the latest change wins). */
  private changed(uri: string, now: boolean): void {
    if (!this.subscribed.has(uri)) return;
    const gap = 1000 / UPDATES_PER_SECOND;
    const wait = (this.lastSent.get(uri) ?? Number.NEGATIVE_INFINITY) + gap - this.ctx.clock.now();
    if (now || wait <= 0) return this.send(uri);
    if (!this.due.has(uri))
      this.due.set(
        uri,
        this.ctx.clock.setTimeout(() => this.send(uri), wait),
      );
  }

  private send(uri: string): void {
    const timer = this.due.get(uri);
    if (timer) this.ctx.clock.clearTimeout(timer);
    this.due.delete(uri);
    this.lastSent.set(uri, this.ctx.clock.now());
    // A client that went away cannot be told.
    this.server.sendResourceUpdated({ uri }).catch(() => undefined);
  }

  /** Each second while a bot resource is subscribed: a bot whose state changed is updated. */
  private sampleBots(): void {
    if (this.sampler || this.closed) return;
    const tick = async () => {
      this.sampler = null;
      const watched = [...this.subscribed].filter((uri) => uri === BOTS || uri.startsWith(BOT_PREFIX));
      if (watched.length === 0) return;
      const samples = await this.ctx.ops.listBots().catch(() => []);
      let any = false;
      for (const sample of samples) {
        const text = JSON.stringify(sample);
        if (this.lastBots.get(sample.bot) === text) continue;
        const first = !this.lastBots.has(sample.bot);
        this.lastBots.set(sample.bot, text);
        if (first) continue;
        any = true;
        this.changed(botUri(sample.bot), false);
      }
      if (any) this.changed(BOTS, false);
      if (this.closed) return;
      this.sampler ??= this.ctx.clock.setTimeout(() => void tick(), BOT_SAMPLE_MS);
    };
    void tick();
  }
}

/** The URI's last segment after `prefix`, decoded; null when it is not one of those. */
function tail(uri: string, prefix: string): string | null {
  if (!uri.startsWith(prefix)) return null;
  const rest = uri.slice(prefix.length);
  if (rest.length === 0 || rest.includes('/')) return null;
  try {
    return decodeURIComponent(rest);
  } catch {
    return null;
  }
}
