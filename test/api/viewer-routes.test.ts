import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { attachViewer, viewerPrefix, type Viewer } from '../../src/api/viewer.js';

// The client prismarine-viewer's page uses, from the same install as its server.
const viewerRequire = createRequire(createRequire(import.meta.url).resolve('prismarine-viewer/package.json'));
const { io: connect } = viewerRequire('socket.io-client') as {
  io: (
    url: string,
    options: object,
  ) => { once(event: string, listener: (value: unknown) => void): void; disconnect(): void };
};

/** A bot as the view reads it: a version, a world with no chunk loaded, a position, and its events. */
function fakeBot(name: string) {
  return Object.assign(new EventEmitter(), {
    username: name,
    version: `version of ${name}`,
    world: { getColumnAt: () => Promise.resolve(null) },
    entity: { position: { x: 0, y: 0, z: 0 }, yaw: 0 },
  });
}

let open: { server: Server; viewers: Viewer[] } | undefined;
afterEach(async () => {
  for (const viewer of open?.viewers ?? []) await viewer.close();
  await new Promise((resolve) => open?.server.close(resolve));
  open = undefined;
});

describe("the bots' 3D views on the API's server", () => {
  it('serve 11 bots through one listener of each kind: no MaxListenersExceededWarning, each view its own bot', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const server = createServer((_request, response) => response.end('the API'));
      server.on('upgrade', () => undefined); // the API's own event stream, as createApiServer adds it
      const names = Array.from({ length: 11 }, (_, i) => `bot-${i + 1}`);
      open = { server, viewers: names.map((name) => attachViewer(server, fakeBot(name), viewerPrefix(name))) };
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

      for (const event of ['request', 'upgrade', 'listening', 'close'])
        expect(server.listenerCount(event), event).toBeLessThanOrEqual(2);
      // Over a WebSocket (an upgrade) and over long-polling (requests), as the viewer's page may connect.
      for (const [name, transport] of [
        ['bot-1', 'websocket'],
        ['bot-11', 'polling'],
      ] as const) {
        const client = connect(url, { path: `${viewerPrefix(name)}socket.io`, transports: [transport] });
        const version = await new Promise((resolve) => client.once('version', resolve));
        client.disconnect();
        expect(version).toBe(`version of ${name}`);
      }
      expect(await (await fetch(`${url}/api/health`)).text()).toBe('the API');
      // A warning is emitted on the next tick after the listener that crossed the limit.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
