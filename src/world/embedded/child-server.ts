import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BlockState, DroppedItem, LivingEntity, ObservationQuery, Vec3Like } from '../../contracts/world.js';
import { Scenario as ScenarioSchema } from '../scenario/index.js';
import type { ChildStartOptions, FromChild, RemoteMethod, ToChild } from './child-protocol.js';
import type { EmbeddedServer, EmbeddedServerOptions, ServerPlayerState } from './embedded-server.js';

export interface ChildEmbeddedServer extends EmbeddedServer {
  readonly pid: number;
  /** Settles when the child process ends, however it ends (a crash included). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const STOP_GRACE_MS = 5000;

/**
 * Names a compiled child-entry.js to fork instead of this module's sibling: the test run compiles the sources once
 * (test/helpers/cli-build.ts), so a child started from the TypeScript sources need not load them through tsx again
 * (about 2 to 4 s of CPU per start).
 */
export const CHILD_ENTRY_ENV = 'VERBTREE_EMBEDDED_CHILD_ENTRY';

/**
 * The embedded server in a forked child process, so a crash inside flying-squid
 * cannot take the executor down: bots connect over TCP as usual and see a
 * crash as a disconnect. Player state is pushed by the child every 50 ms, so
 * `player()` may lag the server by that much; block reads ask the child.
 */
export function startEmbeddedServerInChild(options: EmbeddedServerOptions = {}): Promise<ChildEmbeddedServer> {
  const entry =
    process.env[CHILD_ENTRY_ENV] ??
    fileURLToPath(new URL(`./child-entry${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url));
  // From source (tsx) the child needs the same TypeScript loader; built code runs plain.
  const execArgv = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = fork(entry, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const start: ChildStartOptions = {
    scenario: options.scenario ?? ScenarioSchema.parse({ name: 'empty' }),
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    ...(options.viewDistance ? { viewDistance: options.viewDistance } : {}),
    ...(options.entityTrackingRange ? { entityTrackingRange: options.entityTrackingRange } : {}),
    ...(options.storage ? { storage: options.storage } : {}),
    forwardLog: options.log !== undefined,
  };
  const timeoutMs = options.startTimeoutMs ?? 20_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`embedded server child did not start within ${timeoutMs} ms`));
    }, timeoutMs);
    const server = new ChildServer(child, start.scenario, options.log);
    server.onStart = (error, ready) => {
      clearTimeout(timer);
      if (error || !ready) reject(error ?? new Error('embedded server child failed to start'));
      else resolve(server.ready(ready));
    };
    child.send({ type: 'start', options: start } satisfies ToChild);
  });
}

class ChildServer implements ChildEmbeddedServer {
  host = '';
  port = 0;
  version = '';
  readonly pid: number;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  onStart: (error: Error | null, ready?: { host: string; port: number; version: string }) => void = () => {};
  private players: Record<string, ServerPlayerState> = {};
  private time = 0;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private stopping: Promise<void> | null = null;
  private alive = true;

  constructor(
    private readonly child: ChildProcess,
    readonly scenario: ScenarioSchema,
    private readonly log?: (line: string) => void,
  ) {
    this.pid = child.pid ?? -1;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.alive = false;
        this.players = {};
        for (const { reject } of this.pending.values())
          reject(new Error(`embedded server child exited (code ${code}, signal ${signal})`));
        this.pending.clear();
        this.onStart(new Error(`embedded server child exited before it was ready (code ${code}, signal ${signal})`));
        resolve({ code, signal });
      });
    });
    child.on('message', (message: FromChild) => this.receive(message));
  }

  ready(info: { host: string; port: number; version: string }): this {
    this.host = info.host;
    this.port = info.port;
    this.version = info.version;
    return this;
  }

  private receive(message: FromChild): void {
    switch (message.type) {
      case 'ready':
        this.onStart(null, message);
        break;
      case 'failed':
        this.onStart(new Error(`embedded server child failed to start: ${message.message}`));
        break;
      case 'players':
        this.players = message.players;
        this.time = message.timeOfDay;
        break;
      case 'result': {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error !== undefined) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.value);
        break;
      }
      case 'log':
        this.log?.(message.line);
        break;
      case 'stopped':
        break;
    }
  }

  private call<T>(method: RemoteMethod, ...args: unknown[]): Promise<T> {
    if (!this.alive) return Promise.reject(new Error(`embedded server child is not running (${method})`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ type: 'call', id, method, args } satisfies ToChild);
    });
  }

  blockAt(position: Vec3Like): Promise<string> {
    return this.call('blockAt', position);
  }

  blockStateAt(position: Vec3Like): Promise<BlockState> {
    return this.call('blockStateAt', position);
  }

  containerAt(position: Vec3Like): Promise<Record<string, number> | null> {
    return this.call('containerAt', position);
  }

  livingEntities(query: NonNullable<ObservationQuery['entities']>, at: Vec3Like): Promise<LivingEntity[]> {
    return this.call('livingEntities', query, at);
  }

  droppedItems(around: Vec3Like, radius: number): Promise<DroppedItem[]> {
    return this.call('droppedItems', around, radius);
  }

  setBlock(position: Vec3Like, blockName: string): Promise<void> {
    return this.call('setBlock', position, blockName);
  }

  player(username: string): ServerPlayerState | null {
    return this.players[username] ?? null;
  }

  playerNames(): string[] {
    return Object.keys(this.players);
  }

  /** As the child last pushed it (every 50 ms). */
  timeOfDay(): number {
    return this.time;
  }

  setTimeOfDay(ticks: number): void {
    void this.call('setTimeOfDay', ticks).catch(() => {});
  }

  setHealth(username: string, health: number): boolean {
    if (!this.players[username]) return false;
    void this.call('setHealth', username, health).catch(() => {});
    return true;
  }

  setFood(username: string, food: number): boolean {
    if (!this.players[username]) return false;
    void this.call('setFood', username, food).catch(() => {});
    return true;
  }

  kick(username: string, reason?: string): boolean {
    if (!this.players[username]) return false;
    void this.call('kick', username, reason).catch(() => {});
    return true;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (!this.alive) return;
      this.child.send({ type: 'stop' } satisfies ToChild);
      let timer: NodeJS.Timeout | undefined;
      const killed = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.child.kill('SIGKILL');
          resolve();
        }, STOP_GRACE_MS);
      });
      await Promise.race([this.exited, killed]);
      clearTimeout(timer);
      await this.exited;
    })();
    return this.stopping;
  }
}
