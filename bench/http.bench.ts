import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { createDefaultRegistry } from '../capabilities/index.js';
import { apiBot } from '../src/api/bots.js';
import { createApiServer } from '../src/api/server.js';
import { systemClock } from '../src/clock/index.js';
import { assembleJournaled } from '../src/journal/journaled-executor.js';
import { SqliteJournal } from '../src/journal/sqlite/sqlite-journal.js';
import { SimWorld } from '../src/world/sim/index.js';
import type { BenchResult } from './types.js';

const CONNECTIONS = 16;
const SECONDS = 3;
const TREES = { success: true, trees: ['navigate', 'craft_item', 'dig_block'] };

interface Served {
  url: string;
  close(): Promise<void>;
}

/** Requests a second over CONNECTIONS keep-alive connections for SECONDS, after a warm-up. */
async function requestsPerSecond(url: string, path: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(`${url}${path}`, { agent }, (res) => res.resume().on('end', resolve));
      req.on('error', reject).end();
    });
  const drive = async (ms: number) => {
    let done = 0;
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        for (; performance.now() < end; done++) await one();
      }),
    );
    return done;
  };
  await drive(500);
  const done = await drive(SECONDS * 1000);
  agent.destroy();
  return done / SECONDS;
}

const listening = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

async function bareNode(): Promise<Served> {
  const server = createServer((_req, res) => {
    const body = JSON.stringify(TREES);
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  const url = await listening(server);
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function bareFastify(): Promise<Served> {
  const app = Fastify({ forceCloseConnections: true });
  app.get('/api/trees', () => TREES);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
}

/** verbtree's API over one SimWorld bot, as `serve` runs it. */
async function verbtreeApi(): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'verbtree-http-bench-'));
  const registry = createDefaultRegistry();
  const journal = SqliteJournal.open(join(dir, 'journal.db'));
  const world = SimWorld.create({ clock: systemClock });
  const assembly = await assembleJournaled({ registry, world, clock: systemClock, journal, kind: 'serve' });
  const api = createApiServer({ journal, journalPath: dir, registry, bots: [apiBot('verbtree', assembly)] });
  const { url } = await api.listen(0);
  return {
    url,
    close: async () => {
      await api.close();
      await assembly.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function measure(serve: () => Promise<Served>, path: string): Promise<number> {
  const served = await serve();
  try {
    return await requestsPerSecond(served.url, path);
  } finally {
    await served.close();
  }
}

/**
 * The API's request overhead: GET /api/trees (routing, the query check, a small JSON answer) on verbtree's API
 * (Fastify), against the same answer from bare node:http, the baseline; bare Fastify for the framework's own share.
 * Client and server share the machine: compare ratios within one run, not figures across machines.
 */
export default async function httpBench(): Promise<BenchResult[]> {
  const bare = await measure(bareNode, '/api/trees');
  const fastify = await measure(bareFastify, '/api/trees');
  const api = await measure(verbtreeApi, '/api/trees');
  const unit = 'requests/s';
  return [
    { name: 'HTTP: bare Fastify, GET one JSON answer', value: fastify, unit, baseline: bare, ratio: fastify / bare },
    { name: 'HTTP: verbtree API, GET /api/trees', value: api, unit, baseline: bare, ratio: api / bare },
  ];
}
