import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket } from 'ws';

/**
 * The live stream at /api/events: every message is one JSON object, an
 * executor event or a `bot.state` sample. Clients only listen.
 */
export class EventSocket {
  private readonly wss = new WebSocketServer({ noServer: true });

  constructor(private readonly hello: () => unknown) {
    this.wss.on('connection', (socket) => socket.send(JSON.stringify(this.hello())));
  }

  get clients(): number {
    return this.wss.clients.size;
  }

  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(request, socket, head, (ws) => this.wss.emit('connection', ws, request));
  }

  broadcast(message: unknown): void {
    if (this.wss.clients.size === 0) return;
    const text = JSON.stringify(message);
    for (const client of this.wss.clients) if (client.readyState === WebSocket.OPEN) client.send(text);
  }

  close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    return new Promise((resolve) => this.wss.close(() => resolve()));
  }
}
