import { connect, createServer, type Socket } from 'node:net';

export type PgProxy = Awaited<ReturnType<typeof pgProxy>>;

/**
 * A TCP proxy to PostgreSQL that the test cuts and heals: cut, it stops reading either side (what is sent waits in
 * the kernel, as on a network dropping packets; new connections wait too); healed, everything waiting flows on.
 */
export async function pgProxy(targetPort: number) {
  let cut = false;
  let endNextAtReady = false;
  /** A query's text to cut at once after forwarding it, and who waits for that cut. */
  let cutAfter: { text: Buffer; done: () => void } | null = null;
  const cutAll = () => {
    cut = true;
    for (const pair of pairs) for (const socket of pair) socket.pause();
  };
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
    // Heard after pipe()'s own listener: the chunk has gone to the server when the cut comes.
    client.on('data', (chunk: Buffer) => {
      if (!cutAfter || !chunk.includes(cutAfter.text)) return;
      const { done } = cutAfter;
      cutAfter = null;
      cutAll();
      done();
    });
    if (endNextAtReady) {
      endNextAtReady = false;
      endAtReady(upstream, client);
    } else upstream.pipe(client);
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
    cut: cutAll,
    /**
     * Cuts the moment a client's query holding `text` has gone to the server, before its answer can come back: the
     * server runs it, and the session then waits for the client's next statement. Resolves once cut.
     */
    cutAfterQuery(text: string): Promise<void> {
      return new Promise((done) => (cutAfter = { text: Buffer.from(text), done }));
    },
    /** The proxy's own ports towards PostgreSQL: pg_stat_activity's client_port of the sessions it carries. */
    upstreamPorts() {
      return [...pairs].map(([, upstream]) => upstream.localPort);
    },
    /**
     * The next session the proxy carries is ended by "the server" as it becomes ready: the chunk with its first
     * ReadyForQuery reaches the client with a FATAL error after it (what a server shutting down sends a session),
     * in one write, and the connection closes.
     */
    endNextSessionAtReady() {
      endNextAtReady = true;
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

/** ReadyForQuery while idle: 'Z', length 5, 'I'. */
const READY = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);

/** An ErrorResponse as PostgreSQL sends it to each session when it shuts down. */
function fatalShutdown(): Buffer {
  const fields = Buffer.concat(
    [
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', '57P01'],
      ['M', 'terminating connection due to administrator command'],
    ]
      .map(([code, text]) => Buffer.from(`${code}${text}\0`))
      .concat(Buffer.from('\0')),
  );
  const length = Buffer.alloc(4);
  length.writeUInt32BE(fields.length + 4);
  return Buffer.concat([Buffer.from('E'), length, fields]);
}

function endAtReady(upstream: Socket, client: Socket): void {
  upstream.on('data', (chunk: Buffer) => {
    if (!chunk.subarray(-READY.length).equals(READY)) return void client.write(chunk);
    client.end(Buffer.concat([chunk, fatalShutdown()]));
    upstream.destroy();
  });
}
