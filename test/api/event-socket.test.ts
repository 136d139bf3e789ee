import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { EventSocket } from '../../src/api/event-socket.js';

describe('the event stream under a client that does not read', () => {
  it('drops that client and counts it, instead of buffering for it without limit; a reading client stays', async () => {
    const socket = new EventSocket(() => ({ type: 'hello' }), {
      maxClients: 8,
      maxBufferedBytes: 1024 * 1024,
      maxInboundBytes: 1024,
    });
    const server = createServer();
    server.on('upgrade', (request, duplex, head) => socket.upgrade(request, duplex, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/api/events`;
    try {
      const sleeper = new WebSocket(url);
      const reader = new WebSocket(url);
      let read = 0;
      reader.on('message', () => read++);
      await Promise.all([sleeper, reader].map((ws) => new Promise((resolve) => ws.once('open', resolve))));
      // Stop reading: what the server writes to it piles up, first in the kernel's buffers, then in the server's.
      (sleeper as unknown as { _socket: { pause(): void } })._socket.pause();
      const big = { type: 'bot.state', padding: 'y'.repeat(256 * 1024) };
      let sent = 0;
      while (socket.dropped === 0 && sent < 2000) {
        socket.broadcast(big);
        sent++;
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(socket.dropped).toBe(1);
      // The server let go of it (a paused client never reads the close, so count on the server's side).
      for (let turns = 0; socket.clients > 1 && turns < 1000; turns++)
        await new Promise((resolve) => setImmediate(resolve));
      expect(socket.clients).toBe(1);
      // It was dropped well before all that was sent could pile up for it.
      expect(sent * 256 * 1024).toBeGreaterThan(4 * 1024 * 1024);
      for (let turns = 0; read < 2 && turns < 1000; turns++) await new Promise((resolve) => setImmediate(resolve));
      expect(read).toBeGreaterThan(1);
    } finally {
      await socket.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
