import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { apiBot, Bots } from '../../src/api/bots.js';
import { NodeFeed } from '../../src/api/node-feed.js';
import { createApiServer } from '../../src/api/server.js';
import { systemClock } from '../../src/clock/index.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp } from '../journal/helpers.js';

const TOKEN = 'fleet-token';
const registry = createDefaultRegistry();
const craftPlan = (planId: string) => ({
  planId,
  intentId: 'planks',
  steps: [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }],
});

let closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

/**
 * One API over `names.length` SimWorld bots on one journal, each with its own executor and node feed; `logs[i]` is bot
 * i's oak_log.
 */
async function fleet(names: string[], logs: number[]) {
  const { path, journal } = openTemp();
  const worlds = names.map((_, i) => SimWorld.create({ clock: systemClock, inventory: { oak_log: logs[i] ?? 0 } }));
  const bots = [];
  const feed = new NodeFeed(systemClock, 20);
  closers.push(() => feed.close());
  for (const [i, name] of names.entries()) {
    const assembly = await assembleJournaled({
      registry,
      world: worlds[i]!,
      clock: systemClock,
      journal,
      kind: 'serve',
      hooks: feed.hooksFor(name),
    });
    closers.push(() => assembly.close());
    bots.push(apiBot(name, assembly));
  }
  const api = createApiServer({
    journal,
    journalPath: path,
    registry,
    token: TOKEN,
    botStateEveryMs: 50,
    bots,
    nodeFeed: feed,
  });
  const { url } = await api.listen(0);
  closers.push(() => api.close());
  return { url, worlds, journal };
}

/** A response's JSON body, read as the shape the test then checks field by field. */
const json = async <T = unknown>(response: Response | Promise<Response>): Promise<T> =>
  (await (await response).json()) as T;
/** One event-stream message; a socket of the default binaryType hands each as a Buffer. */
const parseMessage = (data: WebSocket.RawData) => JSON.parse((data as Buffer).toString()) as Record<string, unknown>;
const execute = (url: string, plan: unknown, query = '') =>
  fetch(`${url}/api/cognitive/execute${query}`, {
    method: 'POST',
    body: JSON.stringify(plan),
    headers: { authorization: `Bearer ${TOKEN}` },
  });

describe('an API serving many bots', () => {
  it('lists every bot with its state, and answers status, SLA and 3D-view questions about the one ?bot= names', async () => {
    const { url } = await fleet(['ada', 'bo', 'cy'], [4, 4, 4]);
    const list = await json<{ bots: { bot: string; state: string; kind: string }[] }>(fetch(`${url}/api/bots`));
    expect(list.bots.map((b) => [b.bot, b.state, b.kind])).toEqual([
      ['ada', 'IDLE', 'sim'],
      ['bo', 'IDLE', 'sim'],
      ['cy', 'IDLE', 'sim'],
    ]);
    expect(await json(fetch(`${url}/api/bot/status?bot=bo`))).toMatchObject({
      attached: true,
      name: 'bo',
      kind: 'sim',
      state: 'IDLE',
      viewer: null,
    });
    expect(await json(fetch(`${url}/api/bot/status`))).toMatchObject({ name: 'ada' });
    const unknown = await fetch(`${url}/api/bot/status?bot=dee`);
    expect(unknown.status).toBe(404);
    expect((await json<{ error: string }>(unknown)).error).toBe(
      'no bot "dee" here; the bots are ada, bo, cy (GET /api/bots)',
    );
    expect((await fetch(`${url}/api/capabilities?bot=dee`)).status).toBe(404);
    expect((await fetch(`${url}/api/bot/status?bots=bo`)).status).toBe(400);
    const noView = await fetch(`${url}/viewer/bo/`);
    expect(noView.status).toBe(404);
    expect((await json<{ error: string }>(noView)).error).toContain('no 3D view of "bo"');
  });

  it('runs a plan on the bot ?bot= names and on no other, and the stream names the bot of every event, node batch and sample', async () => {
    const { url, worlds, journal } = await fleet(['ada', 'bo'], [4, 4]);
    const ws = new WebSocket(`${url.replace('http', 'ws')}/api/events`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const messages: Record<string, unknown>[] = [];
    const ended = new Promise<void>((resolve) =>
      ws.on('message', (data) => {
        const message = parseMessage(data);
        messages.push(message);
        if (message.type === 'plan.ended') resolve();
      }),
    );
    await new Promise((resolve) => ws.once('open', resolve));
    // Before anything starts: an unknown bot is refused, and nothing ran.
    expect((await execute(url, craftPlan('nowhere'), '?bot=dee')).status).toBe(404);
    expect(await journal.plan('nowhere')).toBeUndefined();

    const accepted = await execute(url, craftPlan('bo-planks'), '?bot=bo');
    expect(accepted.status).toBe(202);
    expect(await json(accepted)).toMatchObject({ planId: 'bo-planks', bot: 'bo' });
    await ended;
    // A bots.state sample comes on its period; wait for one taken after the plan ended.
    await new Promise<void>((resolve) =>
      ws.on('message', (data) => parseMessage(data).type === 'bots.state' && resolve()),
    );
    ws.close();

    expect(worlds[1]!.inventory().oak_planks).toBe(4);
    expect(worlds[0]!.inventory().oak_planks ?? 0).toBe(0);
    const hello = messages[0] as { type: string; bots: { bot: string }[] };
    expect(hello.type).toBe('hello');
    expect(hello.bots.map((b) => b.bot)).toEqual(['ada', 'bo']);
    const runEvents = messages.filter((m) => typeof m.type === 'string' && /^(plan|step)\./.test(m.type));
    expect(runEvents.length).toBeGreaterThan(3);
    expect(runEvents.every((m) => m.bot === 'bo')).toBe(true);
    const batches = messages.filter((m) => m.type === 'nodes');
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.flatMap((m) => (m.runs as { bot: string }[]).map((r) => r.bot)).every((bot) => bot === 'bo')).toBe(
      true,
    );
    const sample = messages.findLast((m) => m.type === 'bots.state') as { bots: { bot: string; state: string }[] };
    expect(sample.bots.map((b) => b.bot)).toEqual(['ada', 'bo']);
  });

  it('refuses two bots of one name, and a name that is not usable in a URL', () => {
    const bot = (id: string) => ({ id }) as never;
    expect(() => new Bots([bot('a'), bot('a')])).toThrow('two bots are named "a"');
    expect(() => new Bots([bot('a b')])).toThrow('bot name "a b" is not usable in a URL');
    expect(new Bots([]).pick(new URLSearchParams())).toBeUndefined();
  });
});
