import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket } from 'ws';

export interface EventSocketLimits {
  /** Clients at once; one more is answered 503. */
  maxClients: number;
  /** Bytes a client may leave unread before it is dropped (its socket buffer keeps growing otherwise). */
  maxBufferedBytes: number;
  /** Largest frame a client may send; clients only listen, so a larger one closes the connection (1009). */
  maxInboundBytes: number;
}

export const DEFAULT_EVENT_SOCKET_LIMITS: EventSocketLimits = {
  maxClients: 64,
  maxBufferedBytes: 8 * 1024 * 1024,
  maxInboundBytes: 1024,
};

/**
 * The live stream at /api/events: every message is one JSON object, an
 * executor event (naming its bot), a node batch or a `bots.state` sample.
 * Clients only listen: what they send is ignored, and a frame over
 * `maxInboundBytes` ends the connection. A client
 * that stops reading is dropped (and counted) once `maxBufferedBytes` wait for
 * it, so one slow reader cannot grow the server without limit.
 */
export class EventSocket {
  private readonly wss: WebSocketServer;
  /** Clients dropped for not reading. */
  dropped = 0;

  constructor(
    private readonly hello: () => unknown,
    private readonly limits: EventSocketLimits = DEFAULT_EVENT_SOCKET_LIMITS,
  ) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxInboundBytes, perMessageDeflate: false });
    this.wss.on('connection', (socket) => {
      socket.on('message', () => undefined);
      socket.on('error', () => socket.terminate());
      socket.send(JSON.stringify(this.hello()));
    });
  }

  get clients(): number {
    return this.wss.clients.size;
  }

  get full(): boolean {
    return this.wss.clients.size >= this.limits.maxClients;
  }

  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(request, socket, head, (ws) => this.wss.emit('connection', ws, request));
  }

  broadcast(message: unknown): void {
    if (this.wss.clients.size === 0) return;
    const text = JSON.stringify(message);
    for (const client of this.wss.clients) {
      if (client.readyState !== WebSocket.OPEN) continue;
      if (client.bufferedAmount > this.limits.maxBufferedBytes) {
        this.dropped++;
        client.terminate();
        continue;
      }
      client.send(text);
    }
  }

  close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    return new Promise((resolve) => this.wss.close(() => resolve()));
  }
}
