import { randomBytes } from 'node:crypto';
import { NodeFeed } from '../api/node-feed.js';
import { apiBot } from '../api/bots.js';
import { createApiServer, type ApiServer } from '../api/server.js';
import type { Clock } from '../contracts/clock.js';
import type { JournaledAssembly } from '../journal/journaled-executor.js';
import type { Journal } from '../journal/journal.js';
import type { CapabilityRegistry } from '../registry/registry.js';
import { monitorUrl } from './commands/serve.js';
import { CliUsageError } from './io.js';
import { viewerBotFor } from './viewer-bot.js';
import type { WorldPort } from '../contracts/world.js';

/** `verbtree run --monitor`: the monitor for this one run, on loopback, with a token of its own. */
export class RunMonitor {
  private readonly feed: NodeFeed;
  private api: ApiServer | null = null;

  /** `name`: the run's bot, as the monitor shows it. */
  constructor(
    clock: Clock,
    private readonly name: string,
  ) {
    this.feed = new NodeFeed(clock);
  }

  /** The runtime hooks for the run's executor, feeding the monitor's tree view. */
  get hooks() {
    return this.feed.hooksFor(this.name);
  }

  /** Serves the monitor beside the run; returns its address (the token in the fragment). */
  async start(options: {
    journal: Journal;
    journalPath: string;
    registry: CapabilityRegistry;
    assembly: JournaledAssembly;
    port: number;
    world: WorldPort;
    note: (line: string) => void;
  }): Promise<string> {
    const token = randomBytes(12).toString('hex');
    const { assembly } = options;
    const viewerBot = viewerBotFor(options.world, options.note);
    this.api = createApiServer({
      journal: options.journal,
      journalPath: options.journalPath,
      registry: options.registry,
      token,
      trees: assembly.catalog,
      botStateEveryMs: 250,
      selfRunnerId: assembly.process.id,
      nodeFeed: this.feed,
      bots: [apiBot(this.name, assembly, viewerBot ? { viewerBot } : {})],
    });
    const address = await this.api.listen(options.port, '127.0.0.1').catch((error: NodeJS.ErrnoException) => {
      throw new CliUsageError(
        `--monitor cannot listen on 127.0.0.1:${options.port}: ${error.code === 'EADDRINUSE' ? 'the port is in use; give another, e.g. --monitor 0 for a free one' : error.message}`,
      );
    });
    return monitorUrl(address.url, token);
  }

  async close(): Promise<void> {
    await this.api?.close();
    this.feed.close();
  }
}
