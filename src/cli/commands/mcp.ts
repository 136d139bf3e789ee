import { Command } from 'commander';
import { addCombatOptions, type CombatOptions, combatPolicy } from '../combat-options.js';
import { systemClock } from '../../clock/system-clock.js';
import { injectFaults } from '../../executor/fault-injection.js';
import type { RunInput } from '../../executor/executor.js';
import type { Journal } from '../../journal/journal.js';
import { ClientEscalations, DEFAULT_ESCALATION_TIMEOUT_MS } from '../../mcp/escalation.js';
import { serveHttp } from '../../mcp/http.js';
import { DEFAULT_BLOCK_MS, VerbtreeMcp } from '../../mcp/server.js';
import { jsonRpcStdio } from '../../mcp/stdio.js';
import { FleetBots } from '../../operations/fleet-bots.js';
import { createOperations, LocalBots, localBot } from '../../operations/index.js';
import type { CapabilityRegistry } from '../../registry/registry.js';
import { FAULT_SYNTAX, FaultSpecError, parseFaultSpecs, type FaultRule } from '../../world/faults/parse.js';
import { assembleBots } from '../assemble-bots.js';
import { botKeys, holdBots } from '../bot-holder.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import { openWorld, type OpenedWorld, type WorldChoice } from '../open-world.js';
import { RunningPlans, stopRequested } from '../running-plans.js';
import { recheckWindowOption } from '../after-restart.js';
import { addWorldOptions, howBotsShare, worldChoiceOf, worldKindsInWords } from '../world-options.js';
import { journalOption, openJournalFor } from './journal-option.js';

/** What mcp reads itself; the world's settings come from worldChoiceOf. */
interface McpOptions extends CombatOptions {
  /** The first bot's name, whatever the world (its kind reads it or not): more bots are <name>-2, <name>-3, … */
  username: string;
  seed: number;
  bots: number;
  journal: string;
  fault: string[];
  http?: number | true;
  token?: string;
  blockMs: number;
  escalateToClient?: boolean;
  escalationTimeout: number;
  recheckWindowMs?: number;
}

/** How long a stop waits for the running steps to end and be journaled after cancelling them. */
const STOP_GRACE_MS = 10_000;

const wholeIn = (flag: string, min: number, max: number) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new CliUsageError(`${flag} must be a whole number from ${min} to ${max}, got "${value}"`);
  return n;
};

/** `extraTreePaths`: the project's tree folders. `until` and `stdio` are the process's own, replaced by tests. */
export function mcpCommand(
  registry: () => CapabilityRegistry,
  io: CliIO,
  setExit: (code: number) => void,
  extraTreePaths: () => readonly string[] = () => [],
  until: () => Promise<string> = stopRequested,
): Command {
  const command = new Command('mcp').description(
    'Serve verbtree to LLM agents over the Model Context Protocol: every verb a tool whose ok is verified in the world, plus run_plan, get_run, cancel_run, observe and the rest.',
  );
  addCombatOptions(command);
  return addWorldOptions(command, {
    default: 'embedded',
    settings: ['host', 'port', 'username', 'version', 'scenario'],
    own: { username: { description: "the bot's name (more bots: <name>-2, <name>-3, …)" } },
    beside: {
      none: "no bot of its own: a gateway to the journal's fleet (--journal postgres://…), each plan queued for the worker that holds its bot",
    },
  })
    .option(
      '--bots <n>',
      `how many bots to drive; tools take a \`bot\` argument: ${howBotsShare()}`,
      wholeIn('--bots', 1, 100),
      1,
    )
    .addOption(journalOption())
    .option(
      '--fault <verb=fault>',
      `inject a fault, repeatable: ${FAULT_SYNTAX}`,
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option(
      '--http [port]',
      'serve Streamable HTTP on 127.0.0.1 (needs --token) instead of stdio',
      wholeIn('--http', 0, 65_535),
    )
    .option('--token <token>', 'the bearer token --http requires (default: $VERBTREE_TOKEN)')
    .option(
      '--block-ms <ms>',
      'a tool call still running after this long answers { status: "running", planId } (get_run follows it)',
      wholeIn('--block-ms', 100, 600_000),
      DEFAULT_BLOCK_MS,
    )
    .addOption(recheckWindowOption())
    .option(
      '--escalate-to-client',
      'a step that fails past local repair is held, and the pending call answered with the failure: the client sends replace_remaining or cancel_run',
    )
    .option(
      '--escalation-timeout <s>',
      'with --escalate-to-client: how long a held failure waits before its plan ends (escalation_exhausted)',
      wholeIn('--escalation-timeout', 1, 86_400),
      DEFAULT_ESCALATION_TIMEOUT_MS / 1000,
    )
    .addHelpText(
      'after',
      `
Over stdio (the default) standard output carries JSON-RPC only; every log line goes to standard error.
A client configuration (Claude Desktop's claude_desktop_config.json, or Claude Code's .mcp.json):
  { "mcpServers": { "verbtree": { "command": "npx", "args": ["verbtree", "mcp", "--journal", "/abs/path/journal.db"] } } }

Examples:
  $ verbtree mcp --scenario examples/scenarios/stone-age.json
  $ verbtree mcp --world sim --fault navigate=hang
  $ verbtree mcp --host mc.example.org --username scout
  $ VERBTREE_TOKEN=secret verbtree mcp --http 7072 --escalate-to-client
  $ verbtree mcp --world none --journal postgres://verbtree@db.lan/verbtree   # a fleet's bots, held by its workers`,
    )
    .action(async (options: McpOptions, self: Command) => {
      const choice = worldChoiceOf(self);
      if (!choice) checkFleetOptions(self);
      const token = options.token ?? process.env.VERBTREE_TOKEN;
      if (options.http !== undefined && !token)
        throw new CliUsageError(
          '--http needs a bearer token, so that no other program on this machine can drive the bot: give --token <T> or set VERBTREE_TOKEN',
        );
      const faults = parsedFaults(options.fault, registry());
      const stdio = options.http === undefined ? jsonRpcStdio() : null;
      try {
        const serving = { registry: registry(), extraTreePaths: extraTreePaths(), faults, io, until, stdio, token };
        const ended = choice ? await serveMcp(options, choice, serving) : await serveFleetMcp(options, serving);
        // A bot taken over by another process is a stop the user did not ask for.
        setExit(ended === 'asked' ? EXIT.ok : EXIT.failed);
      } finally {
        stdio?.restore();
      }
    });
}

/** What `--world none` cannot take: a bot of this process, or what acts on one; and it needs the fleet's journal. */
const FLEET_REFUSES: Record<string, string> = {
  bots: '--bots',
  fault: '--fault',
  escalateToClient: '--escalate-to-client',
  escalationTimeout: '--escalation-timeout',
  username: '--username',
  scenario: '--scenario',
  host: '--host',
  port: '--port',
  version: '--version',
  seed: '--seed',
};

function checkFleetOptions(self: Command): void {
  for (const [name, flag] of Object.entries(FLEET_REFUSES)) {
    if (self.getOptionValueSource(name) !== 'cli') continue;
    throw new CliUsageError(
      `${flag} applies to bots of this process, and --world none has none: the fleet's bots are held by its workers (verbtree worker --journal … --bot <name>); drop ${flag}, or give a world (${worldKindsInWords()})`,
    );
  }
  if (self.getOptionValueSource('journal') === 'default')
    throw new CliUsageError(
      "--world none serves a fleet's journal, and names none: give --journal postgres://… (the database the fleet's workers share), or the SQLite file they share",
    );
}

function parsedFaults(specs: string[], registry: CapabilityRegistry): FaultRule[] {
  try {
    return parseFaultSpecs(specs, { extraVerbs: registry.verbs() });
  } catch (error) {
    if (error instanceof FaultSpecError) throw new CliUsageError(error.message);
    throw error;
  }
}

interface Serving {
  registry: CapabilityRegistry;
  extraTreePaths: readonly string[];
  faults: FaultRule[];
  io: CliIO;
  until: () => Promise<string>;
  stdio: ReturnType<typeof jsonRpcStdio> | null;
  token: string | undefined;
}

/** Opens the world, assembles the bots, serves MCP until asked to stop, then cancels what runs and closes it all. */
async function serveMcp(options: McpOptions, choice: WorldChoice, serving: Serving): Promise<'asked' | 'lost'> {
  const log = (line: string) => serving.io.err(line);
  const closers: (() => unknown)[] = [];
  try {
    const journal = await openJournalFor(options.journal, { create: true });
    closers.push(() => journal.close());
    let lose: (reason: string) => void = () => undefined;
    const lost = new Promise<string>((resolve) => (lose = resolve));
    // Before the bots connect: a second bot of one name would kick the first off the server.
    const names = Array.from({ length: options.bots }, (_, i) => botNameOf(options.username, i));
    const hold = await holdBots(journal, botKeys(choice, names), {
      clock: systemClock,
      kind: 'mcp',
      onLost: (key, by) => lose(`${key} was taken over by ${by}`),
    });
    closers.push(() => hold.release());
    const opened = await openWorld(choice);
    closers.push(() => opened.close());
    const served = await assembleServer(options, serving, journal, opened, choice);
    closers.push(() => served.close());
    const where = await listen(served.mcp, options, serving);
    closers.push(() => where.close());
    const faults = serving.faults.length > 0 ? `; faults: ${serving.faults.map((f) => f.spec).join(', ')}` : '';
    log(
      `verbtree mcp: ${where.describe}; ${opened.describe}; bots ${names.join(', ')}; journal ${options.journal}${faults}`,
    );
    const asked = (why: string) => ({ why, asked: true });
    const stop = await Promise.race([
      serving.until().then(asked),
      where.closed.then(asked),
      lost.then((why) => ({ why, asked: false })),
    ]);
    const { running } = served;
    log(`stopping (${stop.why})${running.size > 0 ? `: cancelling ${running.size} running plan(s)` : ''}`);
    served.escalations?.releaseAll('the server is stopping');
    await running.cancelAll(STOP_GRACE_MS);
    return stop.asked ? 'asked' : 'lost';
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

/**
 * `--world none`: a gateway to the journal's fleet, holding no bot. The tools reach the fleet's bots through the
 * journal (FleetBots): a plan is queued for the bot's holder and followed there. Stopping closes the sessions, whose
 * calls under way cancel their plans through the journal, as a local server's stop cancels its runs.
 */
async function serveFleetMcp(options: McpOptions, serving: Serving): Promise<'asked'> {
  const journal = await openJournalFor(options.journal, { create: true });
  try {
    const bots = new FleetBots(journal);
    const mcp = new VerbtreeMcp({
      operations: createOperations({ registry: serving.registry, journal, bots, clock: systemClock }),
      registry: serving.registry,
      bots,
      blockMs: options.blockMs,
      version: process.env.npm_package_version ?? '0.1.0',
    });
    const where = await listen(mcp, options, serving);
    try {
      const names = (await journal.listBots()).map((b) => b.name);
      serving.io.err(
        `verbtree mcp: ${where.describe}; fleet gateway, ${names.length > 0 ? `bots ${names.join(', ')}` : 'no fleet bot yet (verbtree worker --bot <name> adds one)'}; journal ${journal.location}`,
      );
      serving.io.err(`stopping (${await Promise.race([serving.until(), where.closed])})`);
      return 'asked';
    } finally {
      await where.close();
      await mcp.close();
    }
  } finally {
    await journal.close();
  }
}

const botNameOf = (username: string, index: number) => (index === 0 ? username : `${username}-${index + 1}`);

/** The bots on the opened world, the operations over them, and the MCP server over those. */
async function assembleServer(
  options: McpOptions,
  serving: Serving,
  journal: Journal,
  opened: OpenedWorld,
  choice: WorldChoice,
) {
  const escalations = options.escalateToClient
    ? new ClientEscalations(systemClock, options.escalationTimeout * 1000)
    : undefined;
  const running = new RunningPlans();
  const assembled = await assembleBots({
    count: options.bots,
    first: opened,
    choice,
    registry: serving.registry,
    extraTreePaths: serving.extraTreePaths,
    journal,
    // The clock its worlds opened on: the bots' steps are judged on the time the process had (issue 34).
    clock: opened.clock,
    kind: 'mcp',
    name: (i) => botNameOf(options.username, i),
    // stdout is the protocol's: a bot's outages are said on stderr.
    note: (line) => serving.io.err(line),
    ...(options.recheckWindowMs === undefined ? {} : { recheckWindowMs: options.recheckWindowMs }),
    policy: {
      seed: options.seed,
      protect: opened.protect ?? [],
      ...combatPolicy(options),
      ...(escalations ? { escalation: { plannerTimeoutMs: escalations.plannerTimeoutMs } } : {}),
    },
    ...(escalations ? { planner: escalations.planner } : {}),
    ...(serving.faults.length > 0
      ? { wrapInvoker: (invoker) => injectFaults(invoker, serving.faults, { clock: opened.clock, seed: options.seed }) }
      : {}),
  });
  const bots = new LocalBots(
    assembled.bots.map(({ name, assembly }) =>
      localBot(name, assembly, async (input) =>
        running.track(await assembly.run(input as RunInput, { signal: running.signal })),
      ),
    ),
  );
  const operations = createOperations({
    registry: serving.registry,
    journal,
    bots,
    clock: systemClock,
    selfRunnerId: assembled.bots[0]!.assembly.process.id,
  });
  const mcp = new VerbtreeMcp({
    operations,
    registry: serving.registry,
    bots,
    blockMs: options.blockMs,
    ...(escalations ? { escalations } : {}),
    version: process.env.npm_package_version ?? '0.1.0',
  });
  return {
    mcp,
    running,
    escalations,
    close: async () => {
      await mcp.close();
      await assembled.close();
    },
  };
}

/** Connects MCP to its transport: stdio (ends when the client closes it) or Streamable HTTP. */
async function listen(
  mcp: VerbtreeMcp,
  options: McpOptions,
  serving: Serving,
): Promise<{ describe: string; closed: Promise<string>; close(): Promise<void> }> {
  if (serving.stdio) {
    const { transport } = serving.stdio;
    const closed = new Promise<string>((resolve) => {
      process.stdin.once('end', () => resolve('the client closed standard input'));
      process.stdin.once('close', () => resolve('the client closed standard input'));
    });
    const session = mcp.createSession();
    await session.connect(transport);
    return { describe: 'serving MCP over stdio', closed, close: () => session.close() };
  }
  const http = await serveHttp(mcp, {
    port: options.http === true ? 0 : (options.http ?? 0),
    token: serving.token!,
    log: (line) => serving.io.err(line),
  }).catch((error: NodeJS.ErrnoException) => {
    throw new CliUsageError(
      `cannot listen on 127.0.0.1:${String(options.http)}: ${error.code === 'EADDRINUSE' ? 'the port is in use; pick another with --http <port>' : error.message}`,
    );
  });
  return {
    describe: `serving MCP over Streamable HTTP at ${http.url} (bearer token required)`,
    closed: new Promise<string>(() => undefined),
    close: () => http.close(),
  };
}
