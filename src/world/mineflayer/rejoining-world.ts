import { EventEmitter } from 'eventemitter3';
import type { Clock, TimerHandle } from '../../contracts/clock.js';
import type { WorldEvents, WorldPort } from '../../contracts/world.js';
import { restartBetween, type Restart, type ServerMark } from '../server-mark.js';

/** What a log says when another login replaced the bot's session. */
export function replacedLine(reason: string): string {
  return `another login of its name replaced this session (${reason}); not joining again: the name is another holder's now`;
}

/** One connection of a bot to its server: the world it sees through it, and how to leave. */
export interface Session {
  world: WorldPort;
  close(): Promise<void>;
}

export interface RejoinOptions {
  clock: Clock;
  /** Joins the server again as the same bot; rejects when this try fails (the server is still away). */
  join(cancel: AbortSignal): Promise<Session>;
  /** The first wait before a try, doubled after each failed try up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Told once per outage, when the connection drops. */
  onLost?(reason: string, since: number): void;
  /**
   * Awaited when a new session is back with its world read, before the world reads as connected again (steps still
   * wait): `restart` says whether the server restarted meanwhile and may have rolled its world back (`restartBetween`),
   * and `world` is the new session's, to check what the bot did against. It reports its own failures: one that escapes
   * is ignored, and the bot comes back all the same.
   */
  returning?(world: WorldPort, restart: Restart | null): Promise<void>;
  /** Told when the bot is back, its world read again, after `awayMs` away and `tries` tries. */
  onRejoined?(awayMs: number, tries: number, restart: Restart | null): void;
  /** Told when a login of the bot's name elsewhere replaced this session: it is not joined again. */
  onReplaced?(reason: string): void;
}

/**
 * A world that can say when its view of the world is whole again after a fresh join (MineflayerWorld's chunks), and
 * which server its session joined.
 */
interface Loads {
  worldLoaded?(): Promise<void>;
  serverMark?(): ServerMark;
}

const FIRST_DELAY_MS = 250;

/**
 * Whether a kick says another client logged in under the bot's name (vanilla's duplicate_login, as its text or its
 * translation key; the embedded server kicks with the same words). That session now belongs to another holder, a
 * worker that took the bot over: joining again would kick it in turn, and the two would take the name from each
 * other for ever.
 */
export function replacedByAnotherLogin(reason: string): boolean {
  return /logged in from another location|multiplayer\.disconnect\.duplicate_login/i.test(reason);
}
/** A restarted server is back within seconds: a bot tries at least every 2 s, so it is back soon after (a status ping's worth of load). */
const MAX_DELAY_MS = 2_000;

/**
 * A bot's world that outlives its connection: when the server goes away (a crash, a restart, a kick), it joins again
 * with backoff (but never after a kick for a login of its name elsewhere: `replacedByAnotherLogin`) until it is back or `close` is called, and each new session's world replaces the dead one behind the
 * same WorldPort, so the executor and its journal keep the one world they were assembled with.
 *
 * While it is away, `isConnected()` is false and every read or command goes to the dead session's world, which
 * refuses them as `world_disconnected` (MineflayerWorld reads nothing from a dead connection's cache): nothing is
 * said about the world until a new session has read it (`worldLoaded`, the chunks around the bot) and only then is
 * it connected again. Its events are the sessions' events, and `disconnected` once per outage.
 */
export class Rejoining {
  readonly events = new EventEmitter<WorldEvents>();
  readonly world: WorldPort;
  private session: Session;
  private awaySince: number | null = null;
  /** The lost session's server, as it last knew it: what the next session's is compared with. */
  private before: ServerMark | null = null;
  private closed = false;
  /** Another login took the bot's name: the session is over for good. */
  private replaced = false;
  private readonly stopTrying = new AbortController();
  private wait: TimerHandle | null = null;

  constructor(
    first: Session,
    private readonly options: RejoinOptions,
  ) {
    this.session = first;
    this.follow(first.world);
    this.world = this.facade();
  }

  /** When the connection dropped (the clock's ms), while it is away; null while connected. */
  get disconnectedSince(): number | null {
    return this.awaySince;
  }

  /** Stops rejoining and leaves the server. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopTrying.abort(new Error('the world was closed'));
    if (this.wait) this.options.clock.clearTimeout(this.wait);
    await this.session.close();
  }

  private facade(): WorldPort {
    const own: Partial<Record<PropertyKey, unknown>> = {
      events: this.events,
      isConnected: () => this.awaySince === null && !this.closed && this.session.world.isConnected(),
      reconnecting: () => this.awaySince !== null && !this.closed && !this.replaced,
      close: () => this.close(),
    };
    const current = () => this.session.world as unknown as Record<PropertyKey, unknown>;
    return new Proxy({} as WorldPort, {
      get: (_target, property) => {
        if (property in own) return own[property];
        const value = current()[property];
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(current()) : value;
      },
      has: (_target, property) => property in own || property in current(),
      // `instanceof MineflayerWorld` (the monitor's 3D view) sees the session's world.
      getPrototypeOf: () => Object.getPrototypeOf(current()) as object | null,
    });
  }

  private follow(world: WorldPort): void {
    world.events.on('path', (status, why) => this.events.emit('path', status, why));
    world.events.on('hurt', (health) => this.events.emit('hurt', health));
    world.events.on('died', (death) => this.events.emit('died', death));
    world.events.once('disconnected', (reason) => this.lost(world, reason));
    // A session that dropped before it was followed is lost all the same.
    if (!world.isConnected()) this.lost(world, 'the connection dropped');
  }

  private lost(world: WorldPort, reason: string): void {
    if (this.closed || world !== this.session.world || this.awaySince !== null) return;
    this.awaySince = this.options.clock.now();
    this.before = (world as WorldPort & Loads).serverMark?.() ?? null;
    this.events.emit('disconnected', reason);
    if (replacedByAnotherLogin(reason)) {
      this.replaced = true;
      this.options.onReplaced?.(reason);
      void this.session.close().catch(() => undefined);
      return;
    }
    this.options.onLost?.(reason, this.awaySince);
    void this.rejoin();
  }

  /** Whether the server restarted since the lost session: null when it did not, or neither session can say. */
  private restartSince(world: WorldPort & Loads): Restart | null {
    const after = world.serverMark?.();
    return this.before && after ? restartBetween(this.before, after) : null;
  }

  /** Tries again and again, each wait twice the last up to its cap, until a session is back with its world read. */
  private async rejoin(): Promise<void> {
    const { clock } = this.options;
    const dead = this.session;
    await dead.close().catch(() => undefined);
    let delay = this.options.firstDelayMs ?? FIRST_DELAY_MS;
    for (let tries = 1; !this.closed; tries++) {
      await new Promise<void>((resolve) => (this.wait = clock.setTimeout(resolve, delay)));
      if (this.closed) return;
      const session = await this.options.join(this.stopTrying.signal).catch(() => null);
      if (session && !this.closed && (await loaded(session.world))) {
        const restart = this.restartSince(session.world);
        await this.options.returning?.(session.world, restart).catch(() => undefined);
        const since = this.awaySince!;
        this.session = session;
        this.awaySince = null;
        this.follow(session.world);
        if (this.awaySince === null) this.options.onRejoined?.(Math.round(clock.now() - since), tries, restart);
        return;
      }
      await session?.close().catch(() => undefined);
      delay = Math.min(delay * 2, this.options.maxDelayMs ?? MAX_DELAY_MS);
    }
  }
}

/** Whether a fresh session has read the world around the bot (a world that cannot say has nothing to read). */
async function loaded(world: WorldPort & Loads): Promise<boolean> {
  if (!world.worldLoaded) return world.isConnected();
  return world.worldLoaded().then(
    () => world.isConnected(),
    () => false,
  );
}
