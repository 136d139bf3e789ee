import type { CliProcess } from './fleet-processes.js';
import { workerTally } from './worker-tally.js';

/*
 * The fleet bench's count of socket writes (issue 34 §2: a worker's `writeBuffer`), on request: with
 * FLEET_WRITE_TALLY=1 each worker loads fleet-write-tally.mjs, and after each row the bench prints, over the plan
 * phase, the packets the bots wrote per second of a walking body and of a body at rest, by name; the socket writes to
 * the Minecraft server per bot per second, and the event-loop turns in which a bot's socket wrote (what one write a
 * socket a turn would make of them); the writes to every other peer (the journal's PostgreSQL) per plan; and the
 * journal's queries (round trips) and statements a plan, by kind.
 */

const tally = workerTally('FLEET_WRITE_TALLY', './fleet-write-tally.mjs', 'write-tally ');

interface Writes {
  writes: number;
  writevs: number;
  chunks: number;
  bytes: number;
}

interface Tally {
  packets: Record<string, { walking: number; resting: number }>;
  walkTicks: number;
  restTicks: number;
  mc: Writes & { socketTurns: number; socketCallbacks: number };
  other: Record<string, Writes & { sockets: number }>;
  queries: Record<string, number>;
  statements: Record<string, number>;
  wallMs: number;
  /** The worker's own CPU time over the window, and its context switches: given up, and taken from it. */
  cpuMs: number;
  switches: { voluntary: number; preempted: number };
}

/** A physics tick: 1/20 of a second of a body's time. */
const TICKS_A_SECOND = 20;

/** The node args that load the tally into a worker, when asked for. */
export function writeTallyArgs(): string[] {
  return tally.args();
}

/** The plan phase's tally of every worker (the last window each printed), on stderr. */
export function reportWriteTally(fleetProcesses: readonly CliProcess[], plans: number): void {
  if (!tally.on) return;
  const tallies = tally.windows<Tally>(fleetProcesses);
  const packets: Record<string, { walking: number; resting: number }> = {};
  const mc = { writes: 0, writevs: 0, chunks: 0, bytes: 0, socketTurns: 0, socketCallbacks: 0 };
  const other: Record<string, Writes & { sockets: number }> = {};
  const queries: Record<string, number> = {};
  const statements: Record<string, number> = {};
  let walkTicks = 0;
  let restTicks = 0;
  let wallSeconds = 0;
  const own = { cpuMs: 0, voluntary: 0, preempted: 0 };
  for (const t of tallies) {
    for (const [name, n] of Object.entries(t.packets)) {
      const sum = (packets[name] ??= { walking: 0, resting: 0 });
      sum.walking += n.walking;
      sum.resting += n.resting;
    }
    for (const key of Object.keys(mc) as (keyof typeof mc)[]) mc[key] += t.mc[key];
    for (const [label, w] of Object.entries(t.other)) {
      const sum = (other[label] ??= { writes: 0, writevs: 0, chunks: 0, bytes: 0, sockets: 0 });
      for (const key of Object.keys(sum) as (keyof typeof sum)[]) sum[key] += w[key];
    }
    for (const [key, n] of Object.entries(t.queries)) queries[key] = (queries[key] ?? 0) + n;
    for (const [key, n] of Object.entries(t.statements ?? {})) statements[key] = (statements[key] ?? 0) + n;
    walkTicks += t.walkTicks;
    restTicks += t.restTicks;
    wallSeconds = Math.max(wallSeconds, t.wallMs / 1000);
    own.cpuMs += t.cpuMs;
    own.voluntary += t.switches.voluntary;
    own.preempted += t.switches.preempted;
  }
  const walkSeconds = walkTicks / TICKS_A_SECOND;
  const restSeconds = restTicks / TICKS_A_SECOND;
  const botSeconds = walkSeconds + restSeconds;
  const rate = (n: number, seconds: number) => (seconds > 0 ? (n / seconds).toFixed(2) : 'n/a');
  const byName = Object.entries(packets)
    .sort(([, a], [, b]) => b.walking + b.resting - (a.walking + a.resting))
    .map(([name, n]) => `${name} ${rate(n.walking, walkSeconds)} / ${rate(n.resting, restSeconds)}`);
  const others = Object.entries(other).map(
    ([label, w]) =>
      `${label} (${w.sockets} sockets): ${(w.writes / plans).toFixed(1)} writes and ${(w.writevs / plans).toFixed(1)} ` +
      `writevs a plan (${rate(w.writes + w.writevs, wallSeconds)} a second), ${(w.bytes / plans).toFixed(0)} bytes a plan`,
  );
  const perPlan = (counts: Record<string, number>, most: number) =>
    Object.entries(counts)
      .sort(([, a], [, b]) => b - a)
      .slice(0, most)
      .map(([key, n]) => `${(n / plans).toFixed(2)} ${key}`);
  const total = (counts: Record<string, number>) =>
    (Object.values(counts).reduce((sum, n) => sum + n, 0) / plans).toFixed(1);
  process.stderr.write(
    `fleet: writes over the plan phase (${wallSeconds.toFixed(1)} s; ${walkSeconds.toFixed(0)} bot-seconds walking, ` +
      `${restSeconds.toFixed(0)} at rest, by physics ticks): packets a bot-second walking / at rest: ${byName.join(', ')}; ` +
      `to the server: ${rate(mc.writes, botSeconds)} writes and ${rate(mc.writevs, botSeconds)} writevs a bot-second ` +
      `(${(mc.chunks / Math.max(1, mc.writes + mc.writevs)).toFixed(2)} packets a write, ${rate(mc.bytes, botSeconds)} ` +
      `bytes), in ${rate(mc.socketTurns, botSeconds)} socket-turns and ${rate(mc.socketCallbacks, botSeconds)} ` +
      `socket-callbacks a bot-second; others: ${others.join('; ')}; ` +
      `the journal's queries (round trips) a plan: ${total(queries)}, by their first statement past BEGIN and the ` +
      `lease check: ${perPlan(queries, 12).join(', ')}; its statements a plan: ${total(statements)}, by kind: ` +
      `${perPlan(statements, 24).join(', ')}; the workers' own CPU ` +
      `${(own.cpuMs / 1000).toFixed(1)} s, context switches ${rate(own.voluntary, wallSeconds)} given up and ` +
      `${rate(own.preempted, wallSeconds)} preempted a second\n`,
  );
}
