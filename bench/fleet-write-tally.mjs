// A worker's socket writes, counted for the fleet bench (`FLEET_WRITE_TALLY=1 npm run bench -- fleet …`): loaded into
// each worker with `node --import`, it counts the packets its bots write (by name, from bots walking and at rest), the
// socket writes (each a `writeBuffer` or `writev` call into libuv) to the Minecraft server and to everything else (the
// journal's PostgreSQL, stdout), their bytes, and the event-loop turns in which a bot's socket wrote at least once:
// the writes there would be if each socket sent a turn's packets as one. Each SIGUSR2 (the bench brackets its plan
// phase with two) prints the counts since the previous one as a stdout line, `write-tally {json}`.
// Plain JavaScript: the workers run the built CLI, with no TypeScript loader.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';

const require = createRequire(import.meta.url);
const pathfinderModule = require('mineflayer-pathfinder');
const { Client } = createRequire(require.resolve('mineflayer'))('minecraft-protocol');

/** The process's context switches so far: those it gave up waiting (voluntary) and those taken from it (preempted). */
function switches() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const read = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { voluntary: read('voluntary_ctxt_switches'), preempted: read('nonvoluntary_ctxt_switches') };
}

let window = fresh();
function fresh() {
  return {
    cpuAtOpen: process.cpuUsage(),
    switchesAtOpen: switches(),
    packets: {},
    walkTicks: 0,
    restTicks: 0,
    mc: { writes: 0, writevs: 0, chunks: 0, bytes: 0, socketTurns: 0, socketCallbacks: 0 },
    other: {},
    queries: {},
    statements: {},
    openedAt: performance.now(),
  };
}

/** Each bot's client, for its packets' walking or resting; each bot's socket, to tell its writes from the journal's. */
const botOf = new WeakMap();
const mcSockets = new WeakSet();
const inject = pathfinderModule.pathfinder;
pathfinderModule.pathfinder = function writeTalliedInject(bot, options) {
  inject(bot, options);
  botOf.set(bot._client, bot);
  if (bot._client.socket) mcSockets.add(bot._client.socket);
  bot.on('physicsTick', () => {
    if (bot.pathfinder?.goal) window.walkTicks++;
    else window.restTicks++;
  });
};

const write = Client.prototype.write;
Client.prototype.write = function talliedWrite(name, params) {
  const bot = botOf.get(this);
  if (bot !== undefined) {
    const counts = (window.packets[name] ??= { walking: 0, resting: 0 });
    if (bot.pathfinder?.goal) counts.walking++;
    else counts.resting++;
  }
  return write.call(this, name, params);
};

// The journal's queries (a round trip each: one socket write), by their first statement's opening words past BEGIN and
// the lease check; and their statements, each by its opening words, its quoted values blanked.
const pg = require('pg');
const query = pg.Client.prototype.query;
const shape = (statement) =>
  statement
    .replace(/\s+/g, ' ')
    .replace(/'[^']*'/g, "'…'")
    .slice(0, 48);
pg.Client.prototype.query = function talliedQuery(config, ...rest) {
  const text = typeof config === 'string' ? config : config?.text;
  if (typeof text === 'string') {
    const statements = text.split(';\n');
    const first = statements.find((s) => !s.startsWith('BEGIN') && !s.startsWith('SELECT verbtree_fence')) ?? '';
    const key = `${statements.length > 1 ? `${statements.length} statements: ` : ''}${shape(first)}`;
    window.queries[key] = (window.queries[key] ?? 0) + 1;
    for (const statement of statements) {
      const kind = shape(statement);
      window.statements[kind] = (window.statements[kind] ?? 0) + 1;
    }
  }
  return query.call(this, config, ...rest);
};

// The sockets of one turn: a socket's first write in a turn counts one, and the set empties at the turn's check phase.
const wroteThisTurn = new Set();
// And of one callback (a timer's, an I/O event's): the set empties once the callback and its microtasks are done.
const wroteThisCallback = new Set();
const writeGeneric = net.Socket.prototype._writeGeneric;
net.Socket.prototype._writeGeneric = function talliedWriteGeneric(writev, data, encoding, cb) {
  const chunks = writev ? data.length : 1;
  const bytes = writev ? data.reduce((sum, c) => sum + (c.chunk ?? c).length, 0) : (data?.length ?? 0);
  if (mcSockets.has(this)) {
    const mc = window.mc;
    if (writev) mc.writevs++;
    else mc.writes++;
    mc.chunks += chunks;
    mc.bytes += bytes;
    if (!wroteThisTurn.has(this)) {
      if (wroteThisTurn.size === 0) setImmediate(() => wroteThisTurn.clear());
      wroteThisTurn.add(this);
      mc.socketTurns++;
    }
    if (!wroteThisCallback.has(this)) {
      if (wroteThisCallback.size === 0) process.nextTick(() => wroteThisCallback.clear());
      wroteThisCallback.add(this);
      mc.socketCallbacks++;
    }
  } else {
    const label = this === process.stdout ? 'stdout' : this === process.stderr ? 'stderr' : `port ${this.remotePort}`;
    const other = (window.other[label] ??= { writes: 0, writevs: 0, chunks: 0, bytes: 0, sockets: new Set() });
    if (writev) other.writevs++;
    else other.writes++;
    other.chunks += chunks;
    other.bytes += bytes;
    other.sockets.add(this);
  }
  return writeGeneric.call(this, writev, data, encoding, cb);
};

process.on('SIGUSR2', () => {
  const closed = window;
  window = fresh();
  closed.wallMs = performance.now() - closed.openedAt;
  const cpu = process.cpuUsage(closed.cpuAtOpen);
  closed.cpuMs = (cpu.user + cpu.system) / 1000;
  const now = switches();
  closed.switches = {
    voluntary: now.voluntary - closed.switchesAtOpen.voluntary,
    preempted: now.preempted - closed.switchesAtOpen.preempted,
  };
  for (const other of Object.values(closed.other)) other.sockets = other.sockets.size;
  process.stdout.write(`write-tally ${JSON.stringify(closed)}\n`);
});
