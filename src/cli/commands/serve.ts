import { Command } from 'commander';
import { addCombatOptions, type CombatOptions, combatPolicy } from '../combat-options.js';
import type { CapabilityRegistry } from '../../registry/registry.js';
import { systemClock } from '../../clock/system-clock.js';
import { createApiServer } from '../../api/server.js';
import { NodeFeed } from '../../api/node-feed.js';
import { builtinTreePaths, loadTrees } from '../../executor/assemble.js';
import { JournalRunner } from '../../journal/runner.js';
import { type CliIO, CliUsageError, EXIT } from '../io.js';
import { openWorld } from '../open-world.js';
import { RunningPlans, stopRequested } from '../running-plans.js';
import { serveBots } from '../serve-bots.js';
import { recheckWindowOption } from '../after-restart.js';
import { addWorldOptions, howBotsShare, worldChoiceOf, worldKindsInWords } from '../world-options.js';
import { journalOption, openJournalFor } from './journal-option.js';
import { FleetBots } from '../../operations/fleet-bots.js';
import { ClientEscalations, DEFAULT_ESCALATION_TIMEOUT_MS } from '../../mcp/escalation.js';

interface ServeOptions extends CombatOptions {
  port: number;
  host: string;
  journal: string;
  token?: string;
  bots: number;
  healthInterval: number;
  allowOrigin: string[];
  escalateToClient?: boolean;
  escalationTimeout: number;
  recheckWindowMs?: number;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
/** How long a stop waits for the running steps to end and be journaled after cancelling them. */
const STOP_GRACE_MS = 10_000;

function portOf(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new CliUsageError(`--port must be a whole number from 0 to 65535 (0 picks a free port), got "${value}"`);
  return port;
}

/** `extraTreePaths`: the project's tree folders, loaded beside the built-in ones. */
export function serveCommand(
  registry: () => CapabilityRegistry,
  io: CliIO,
  setExit: (code: number) => void,
  extraTreePaths: () => readonly string[] = () => [],
  until: () => Promise<string> = stopRequested,
): Command {
  const command = new Command('serve')
    .description(
      'Serve the HTTP API: health, incidents, capabilities with measured SLA, bot status, /metrics, a bearer-guarded execute endpoint, and live events over a WebSocket.',
    )
    .option('--port <n>', 'port to listen on (0 picks a free one)', portOf, 7070)
    .option('--host <address>', 'address to bind; the default keeps the API on this machine', '127.0.0.1')
    .addOption(journalOption())
    .option(
      '--token <token>',
      'bearer token for POST /api/cognitive/execute (default: $VERBTREE_TOKEN; without one, control is refused)',
    );
  addCombatOptions(command);
  // --host and --port are the API's own address here: the Minecraft server of a remote world is --server-host/-port.
  return addWorldOptions(command, {
    default: 'sim',
    settings: ['host', 'port', 'version', 'scenario'],
    own: { host: { flag: '--server-host <host>' }, port: { flag: '--server-port <port>' } },
    beside: {
      none: "no bot of its own: a gateway to the journal's fleet (plans queued for the bots that workers hold) and its runs",
    },
  })
    .option(
      '--bots <n>',
      `how many bots to drive, named verbtree, verbtree-2, …: ${howBotsShare()}`,
      (v: string) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 100)
          throw new CliUsageError(`--bots must be a whole number from 1 to 100, got "${v}"`);
        return n;
      },
      1,
    )
    .option(
      '--allow-origin <origin>',
      'a web origin (e.g. https://monitor.example) whose pages may open the event stream; repeatable',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option(
      '--health-interval <s>',
      'run a health check every s seconds and stream its findings (0 for never)',
      (v: string) => {
        const s = Number(v);
        if (!Number.isInteger(s) || s < 0)
          throw new CliUsageError(`--health-interval must be a whole number of seconds (0 for never), got "${v}"`);
        return s;
      },
      30,
    )
    .addOption(recheckWindowOption())
    .option(
      '--escalate-to-client',
      'a step that fails past local repair is held for the HTTP client (GET /api/runs/<planId>/escalation) to answer with POST /api/plans/<planId>/replace or cancel',
    )
    .option(
      '--escalation-timeout <s>',
      'with --escalate-to-client: how long a held failure waits before its plan ends (escalation_exhausted)',
      (v: string) => {
        const s = Number(v);
        if (!Number.isInteger(s) || s < 1 || s > 86_400)
          throw new CliUsageError(`--escalation-timeout must be a whole number of seconds from 1 to 86400, got "${v}"`);
        return s;
      },
      DEFAULT_ESCALATION_TIMEOUT_MS / 1000,
    )
    .addHelpText(
      'after',
      `
Endpoints (the OpenAPI 3.1 contract: GET /api/openapi.json): GET /api/health, /api/incidents, /api/capabilities,
/api/bots, /api/bot/status, /api/runs, /api/runs/<planId>[/status|/events|/nodes|/escalation], /metrics;
POST /api/cognitive/execute (Authorization: Bearer <token>; ?wait=true to get the result, ?bot=<name> for a bot
other than the first), POST /api/health/recover, POST /api/plans/<planId>/<pause|resume|cancel|replace>;
With --world none it is a gateway to the journal's fleet: execute queues the plan for ?bot=<name> (once per planId)
for the worker that holds it, /api/bots lists every fleet bot, /api/events relays every worker's journaled events.
WebSocket /api/events (the same token, as that header or the subprotocol "bearer.<token>"): every message names its bot.
The monitor (live view of every bot, replay of journaled runs) at /monitor/; a real bot's 3D view at /viewer/<bot>/.
Binding an address other than loopback needs a token. On SIGINT/SIGTERM the running steps are cancelled,
journaled as ended, and then the server stops.

Examples:
  $ VERBTREE_TOKEN=secret verbtree serve --port 7070
  $ verbtree serve --world none --journal runs/bot1.db
  $ verbtree serve --world none --journal postgres://verbtree@db.lan/verbtree --host 0.0.0.0 --token secret   # fleet gateway
  $ verbtree serve --world embedded --bots 3 --token secret      # three bots on one embedded server
  $ verbtree serve --server-host mc.example.org --bots 3 --token secret   # three bots on a server you run
  $ curl -H "Authorization: Bearer secret" -d @examples/walk.plan.json http://127.0.0.1:7070/api/cognitive/execute`,
    )
    .action(async (options: ServeOptions, self: Command) => {
      const token = options.token ?? process.env.VERBTREE_TOKEN;
      if (!token && !LOOPBACK.has(options.host)) {
        throw new CliUsageError(
          `--host ${options.host} opens the API to the network, and without a token anyone there could read the journal and the event stream: give --token <T> (or set VERBTREE_TOKEN), or bind 127.0.0.1`,
        );
      }
      const choice = worldChoiceOf(self);
      if (!choice && options.escalateToClient)
        throw new CliUsageError(
          "--escalate-to-client holds the failures of this server's own bots: give it a world (a fleet's bots are the workers')",
        );
      if (!choice && options.bots !== 1)
        throw new CliUsageError(`--bots needs a world: ${worldKindsInWords()} (--world none serves the journal only)`);
      const journal = await openJournalFor(options.journal, { create: true });
      const opened = choice ? await openWorld(choice) : null;
      const running = new RunningPlans();
      const nodeFeed = new NodeFeed(systemClock);
      const escalations = options.escalateToClient
        ? new ClientEscalations(systemClock, options.escalationTimeout * 1000)
        : undefined;
      const served = opened
        ? await serveBots({
            nodeFeed,
            count: options.bots,
            first: opened,
            choice: choice!,
            registry: registry(),
            extraTreePaths: extraTreePaths(),
            journal,
            // The clock its worlds opened on: the bots' steps are judged on the time the process had (issue 34).
            clock: opened.clock,
            note: (line) => io.out(line),
            track: (run) => running.track(run),
            signal: running.signal,
            combat: combatPolicy(options),
            ...(escalations ? { planner: escalations.planner, plannerTimeoutMs: escalations.plannerTimeoutMs } : {}),
            ...(options.recheckWindowMs === undefined ? {} : { recheckWindowMs: options.recheckWindowMs }),
          }).catch(async (error: unknown) => {
            await opened.close();
            throw error;
          })
        : null;
      // Without a bot the monitor still replays journaled runs, and draws their trees.
      const trees =
        served?.assemblies[0]!.catalog ??
        (await loadTrees(registry(), [...builtinTreePaths(), ...extraTreePaths()])).catalog;
      const readOnly = served ? null : await new JournalRunner(journal, { kind: 'serve', clock: systemClock }).start();
      const api = createApiServer({
        journal,
        journalPath: journal.location,
        registry: registry(),
        ...(token ? { token } : {}),
        selfRunnerId: served?.assemblies[0]!.process.id ?? readOnly!.id,
        healthEveryMs: options.healthInterval * 1000,
        allowOrigins: options.allowOrigin,
        trees,
        nodeFeed,
        ...(escalations ? { escalations } : {}),
        ...(served ? { bots: served.bots } : { fleet: new FleetBots(journal) }),
      });
      try {
        const address = await api.listen(options.port, options.host).catch((error: NodeJS.ErrnoException) => {
          throw new CliUsageError(
            `cannot listen on ${options.host}:${options.port}: ${error.code === 'EADDRINUSE' ? 'the port is in use; pick another with --port' : error.message}`,
          );
        });
        const fleet =
          options.bots > 1
            ? ` and ${options.bots - 1} more bot(s) (${served!.bots
                .slice(1)
                .map((b) => b.id)
                .join(', ')})`
            : '';
        io.out(
          `verbtree API on ${address.url} (journal ${journal.location}; ${opened ? `${opened.describe}${fleet}` : await gatewayLine(journal)}; control ${token ? 'enabled with a bearer token' : 'disabled: no --token or VERBTREE_TOKEN'})`,
        );
        io.out(`monitor: ${monitorUrl(address.url, token)}`);
        const signal = await until();
        io.out(`stopping on ${signal}${running.size > 0 ? `: cancelling ${running.size} running plan(s)` : ''}`);
        escalations?.releaseAll('the server is stopping');
        await running.cancelAll(STOP_GRACE_MS);
        setExit(EXIT.ok);
      } finally {
        await api.close();
        await served?.close();
        nodeFeed.close();
        await readOnly?.stop();
        await opened?.close();
        await journal.close();
      }
    });
}

/** What a gateway serves: the fleet's bots as the journal holds them now. */
async function gatewayLine(journal: { listBots(): Promise<{ name: string }[]> }): Promise<string> {
  const names = (await journal.listBots()).map((b) => b.name);
  return `fleet gateway, ${names.length > 0 ? `bots ${names.join(', ')}` : 'no fleet bot yet (verbtree worker --bot <name> adds one)'}`;
}

/** The monitor's address; the token rides in the fragment, which the browser never sends to a server. */
export function monitorUrl(base: string, token: string | undefined): string {
  return `${base}/monitor/${token ? `#token=${encodeURIComponent(token)}` : ''}`;
}
