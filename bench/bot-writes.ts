import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { batchWrites } from '../src/world/protocol/batched-writes.js';

/*
 * What a bot's socket writes cost its process, a packet at a time or a callback's packets in one write
 * (src/world/protocol/batched-writes.ts): `npx tsx bench/bot-writes.ts [callbacks]`. A reader in a child process (as the
 * world server is) drains a loopback TCP connection; this process writes `callbacks` callbacks of K packets of 100
 * bytes (a position packet is 30 to 40, a look 12: the figure is per write more than per byte) for K = 1, 2, 4 and 8,
 * each callback a macrotask of its own, and prints the CPU time per packet of this process and of the reader, each
 * way in turn, in each of `rounds` rounds (3): `npx tsx bench/bot-writes.ts [callbacks] [rounds] [1,2,4,8]`.
 */

const CALLBACKS = Number(process.argv[2] ?? 20_000);
const PACKET = Buffer.alloc(100, 7);
const READER = `
  const server = require('node:net').createServer((s) => s.on('data', () => {}));
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

/** A process's CPU time so far (µs), from /proc (user and system, in clock ticks of 10 ms). */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

interface Reader {
  port: number;
  cpuUs: () => number;
  stop: () => void;
}

async function reader(): Promise<Reader> {
  const child = spawn(process.execPath, ['-e', READER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  return { port: Number(line.toString().trim()), cpuUs: () => cpuOf(child.pid!), stop: () => child.kill() };
}

/** CPU µs per packet of this process and of the reader, for `callbacks` callbacks of `perCallback` packets each. */
async function run({ port, cpuUs }: Reader, perCallback: number, batched: boolean): Promise<[number, number]> {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await once(socket, 'connect');
  if (batched) batchWrites(socket, 'callback');
  const started = process.cpuUsage();
  const readerStarted = cpuUs();
  for (let i = 0; i < CALLBACKS; i++) {
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        for (let k = 0; k < perCallback; k++) socket.write(PACKET);
        resolve();
      }),
    );
    if (socket.writableLength > 1 << 20) await once(socket, 'drain');
  }
  const used = process.cpuUsage(started);
  // The reader has read all once the socket has nothing left to send and a last turn has passed.
  while (socket.writableLength > 0) await once(socket, 'drain');
  await new Promise((resolve) => setTimeout(resolve, 50));
  const readerUsed = cpuUs() - readerStarted;
  socket.destroy();
  const packets = CALLBACKS * perCallback;
  return [(used.user + used.system) / packets, readerUsed / packets];
}

const theReader = await reader();
try {
  for (let round = 1; round <= Number(process.argv[3] ?? 3); round++)
    for (const perCallback of (process.argv[4] ?? '1,2,4,8').split(',').map(Number)) {
      const [plain, plainRead] = await run(theReader, perCallback, false);
      const [batched, batchedRead] = await run(theReader, perCallback, true);
      console.log(
        `round ${round}, ${perCallback} packets a callback: writer ${plain.toFixed(2)} µs CPU a packet a write ` +
          `each, ${batched.toFixed(2)} µs in one write a callback (${((100 * batched) / plain).toFixed(0)} %); ` +
          `reader ${plainRead.toFixed(2)} and ${batchedRead.toFixed(2)} µs`,
      );
    }
} finally {
  theReader.stop();
}
