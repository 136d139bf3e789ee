import { connect, createServer, type Socket } from 'node:net';

export type PgProxy = Awaited<ReturnType<typeof pgProxy>>;

/**
 * A TCP proxy to PostgreSQL that the test cuts and heals: cut, it stops reading either side (what is sent waits in
 * the kernel, as on a network dropping packets; new connections wait too); healed, everything waiting flows on.
 */
export async function pgProxy(targetPort: number) {
  let cut = false;
  const pairs = new Set<[Socket, Socket]>();
  const closePair = (pair: [Socket, Socket]) => {
    for (const socket of pair) socket.destroy();
    pairs.delete(pair);
  };
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    // pipe() sets its source flowing: a connection made while cut is paused after.
    client.pipe(upstream);
    upstream.pipe(client);
    for (const socket of pair) {
      socket.on('error', () => undefined);
      // One side gone: the other goes too, but not across a cut (its news would not cross it either) — at the heal.
      socket.on('close', () => {
        if (!cut) closePair(pair);
      });
      if (cut) socket.pause();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      cut = true;
      for (const pair of pairs) for (const socket of pair) socket.pause();
    },
    /** The proxy's own ports towards PostgreSQL: pg_stat_activity's client_port of the sessions it carries. */
    upstreamPorts() {
      return [...pairs].map(([, upstream]) => upstream.localPort);
    },
    heal() {
      cut = false;
      for (const pair of pairs)
        if (pair.some((socket) => socket.destroyed)) closePair(pair);
        else for (const socket of pair) socket.resume();
    },
    close() {
      for (const pair of pairs) closePair(pair);
      server.close();
    },
  };
}
