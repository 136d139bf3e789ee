import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { systemClock } from '../../src/clock/index.js';
import type { EventSocketLimits } from '../../src/api/event-socket.js';
import { apiBot } from '../../src/api/bots.js';
import { createApiServer, type ApiServer } from '../../src/api/server.js';
import { assembleJournaled, type JournaledAssembly } from '../../src/journal/journaled-executor.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { openTemp, stepsOf } from '../journal/helpers.js';
import { crashedMidStep } from '../journal/seed.js';

const TOKEN = 'test-token';
const registry = createDefaultRegistry();
const craftPlan = (planId: string) => ({
  planId,
  intentId: 'need-planks',
  steps: [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }],
});

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

async function serve(
  options: {
    bot?: boolean;
    bodyLimit?: number;
    eventLimits?: Partial<EventSocketLimits>;
    allowOrigins?: string[];
  } = {},
): Promise<{
  url: string;
  api: ApiServer;
  assembly?: JournaledAssembly;
  journal: ReturnType<typeof openTemp>['journal'];
}> {
  const { path, journal } = openTemp();
  let assembly: JournaledAssembly | undefined;
  if (options.bot !== false) {
    const world = SimWorld.create({ clock: systemClock, inventory: { oak_log: 4 } });
    assembly = await assembleJournaled({ registry, world, clock: systemClock, journal, kind: 'serve' });
    closers.push(() => assembly!.close());
  }
  const api = createApiServer({
    journal,
    journalPath: path,
    registry,
    token: TOKEN,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.eventLimits ? { eventLimits: options.eventLimits } : {}),
    ...(options.allowOrigins ? { allowOrigins: options.allowOrigins } : {}),
    ...(assembly ? { selfRunnerId: assembly.process.id, bots: [apiBot('verbtree', assembly)] } : {}),
  });
  const { url } = await api.listen(0);
  closers.push(() => api.close());
  return { url, api, journal, ...(assembly ? { assembly } : {}) };
}

/** A client of the event stream, with the server's token unless told otherwise. */
const events = (
  url: string,
  options: WebSocket.ClientOptions = { headers: { authorization: `Bearer ${TOKEN}` } },
  protocols?: string[],
) => new WebSocket(`${url.replace('http', 'ws')}/api/events`, protocols, options);

/** The HTTP status an upgrade was refused with, or 101 when it opened. */
const upgradeStatus = (ws: WebSocket) =>
  new Promise<number>((resolve) => {
    ws.once('open', () => resolve(101));
    ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    ws.once('error', () => undefined);
  });

const post = (url: string, body: string, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
  fetch(`${url}/api/cognitive/execute`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** A response's JSON body, read as the shape the test then checks field by field. */
const json = async <T = unknown>(response: Response | Promise<Response>): Promise<T> =>
  (await (await response).json()) as T;
type ErrorBody = { error: string };

/** One event-stream message; a socket of the default binaryType hands each as a Buffer. */
const parseMessage = <T = { type: string }>(data: WebSocket.RawData): T => JSON.parse((data as Buffer).toString()) as T;

/** Prometheus text exposition to { "name{labels}": value }, checking each sample line's shape. */
function parsePrometheus(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    samples.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]));
  }
  return samples;
}

describe('HTTP API on loopback', () => {
  it('binds 127.0.0.1 and reports health, incidents and bot status', async () => {
    const { url, journal, api } = await serve();
    expect((api.server.address() as { address: string }).address).toBe('127.0.0.1');
    const health = await json<{ health: { checks: { type: string }[] } }>(fetch(`${url}/api/health`));
    expect(health).toMatchObject({ success: true, health: { status: 'healthy', activeIncidents: 0 } });
    expect(health.health.checks.map((c: { type: string }) => c.type)).toEqual([
      'orphaned_step',
      'hanging_attempt',
      'zombie_runner',
      'dead_runner',
      'expired_lease',
      'dead_worker',
    ]);

    await journal.openIncident({ planId: 'p', stepId: 'walk-east', mode: 'orphaned_step', details: { pid: 1 } });
    const resolved = await journal.openIncident({ planId: 'p', stepId: 'dig', mode: 'orphaned_step', details: null });
    await journal.resolveIncident(resolved, 'reset to pending');
    const all = await json<{ total: number }>(fetch(`${url}/api/incidents`));
    expect(all.total).toBe(2);
    const open = await json(fetch(`${url}/api/incidents?unresolved=true&step=walk`));
    expect(open).toMatchObject({
      success: true,
      total: 1,
      incidents: [{ step_id: 'walk-east', failure_mode: 'orphaned_step', details: { pid: 1 } }],
    });
    const badLimit = await fetch(`${url}/api/incidents?limit=lots`);
    expect(badLimit.status).toBe(400);
    expect((await json<ErrorBody>(badLimit)).error).toContain('limit must be a whole number');

    const bot = await json(fetch(`${url}/api/bot/status`));
    expect(bot).toMatchObject({
      success: true,
      attached: true,
      kind: 'sim',
      connected: true,
      health: 20,
      food: 20,
      position: { x: 0.5, y: 0, z: 0.5 },
    });
  });

  it('a GET of /api/health reports and changes nothing; POST /api/health/recover (token) recovers and streams the findings', async () => {
    const { url, journal } = await serve({ bot: false });
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    await crashedMidStep(journal, { runner: 'gone', pid: dead, host: hostname(), step: 's' });
    const state = async () => [
      (await journal.listRuns())[0]!.runner_status,
      (await stepsOf(journal, 'p'))[0]!.status,
      (await journal.listIncidents()).total,
    ];
    const before = await state();

    const read = await json<{ recovered: boolean; health: { checks: unknown[]; findings: { action: string }[] } }>(
      fetch(`${url}/api/health`),
    );
    expect(read.recovered).toBe(false);
    expect(read.health.checks).toMatchObject([
      { type: 'orphaned_step', found: 1 },
      {},
      {},
      { type: 'dead_runner', found: 1 },
      { type: 'expired_lease', found: 0 },
      { type: 'dead_worker', found: 0 },
    ]);
    expect(read.health.findings[0]!.action).toMatch(/^not done, this was a read: marked dead/);
    expect(await state()).toEqual(before);

    const ws = events(url);
    const recovery = new Promise<{ findings: { mode: string }[] }>((resolve) =>
      ws.on(
        'message',
        (data) =>
          parseMessage(data).type === 'health.recovery' &&
          resolve(parseMessage<{ findings: { mode: string }[] }>(data)),
      ),
    );
    await new Promise((resolve) => ws.once('open', resolve));
    expect((await fetch(`${url}/api/health/recover`, { method: 'POST' })).status).toBe(401);
    expect(await state()).toEqual(before);
    const recovered = await json(
      fetch(`${url}/api/health/recover`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } }),
    );
    expect(recovered).toMatchObject({ recovered: true, health: { status: 'degraded' } });
    expect((await recovery).findings.map((f) => f.mode)).toEqual(['dead_runner', 'orphaned_step']);
    expect(await state()).not.toEqual(before);
    ws.close();
  });

  it('says plainly when no bot is attached, and refuses to execute', async () => {
    const { url } = await serve({ bot: false });
    expect(await json(fetch(`${url}/api/bot/status`))).toEqual({
      success: true,
      attached: false,
      message: 'no bot attached: this server was started without a world (serve --world none)',
    });
    const refused = await post(url, JSON.stringify(craftPlan('x')));
    expect(refused.status).toBe(503);
  });

  it('refuses control without the bearer token and bad input with a 4xx that says why', async () => {
    const { url } = await serve({ bodyLimit: 2048 });
    const none = await post(url, JSON.stringify(craftPlan('a')), {});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await json<ErrorBody>(none)).error).toContain('Authorization: Bearer <token>');
    expect((await post(url, JSON.stringify(craftPlan('a')), { authorization: 'Bearer wrong' })).status).toBe(401);

    const malformed = await post(url, '{"planId": ');
    expect(malformed.status).toBe(400);
    expect((await json<ErrorBody>(malformed)).error).toMatch(/^the body is not valid JSON/);

    const invalid = await post(
      url,
      JSON.stringify({ planId: 'p', intentId: 'i', steps: [{ stepId: 's', type: 'teleport', args: {} }] }),
    );
    expect(invalid.status).toBe(422);
    const issues = await json<ErrorBody & { issues: unknown[] }>(invalid);
    expect(issues.error).toContain('unknown verb "teleport"');
    expect(issues.issues[0]).toMatchObject({ code: 'unknown_verb' });

    const huge = await post(url, JSON.stringify({ ...craftPlan('big'), padding: 'x'.repeat(4096) }));
    expect(huge.status).toBe(413);
    expect((await json<ErrorBody>(huge)).error).toContain('over the limit of 2048');

    const intent = await post(
      url,
      JSON.stringify({ id: 'i', source: 'user', goal: 'get wood', urgency: 0.5, safety: { allowed: true } }),
    );
    expect(intent.status).toBe(422);
    expect((await fetch(`${url}/api/cognitive/execute`)).status).toBe(405);
    const missing = await fetch(`${url}/api/nothing`);
    expect(missing.status).toBe(404);
    expect((await json<ErrorBody>(missing)).error).toContain('GET /api/health');
  });

  it('streams the executor events of a run over the WebSocket, journals it, and counts it in /metrics and the measured SLA', async () => {
    const { url, journal } = await serve();
    const ws = events(url);
    const messages: { type: string; stepId?: string }[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      ws.on('message', (data) => {
        const message = parseMessage<{ type: string; stepId?: string }>(data);
        messages.push(message);
        if (message.type === 'plan.ended') resolve();
      });
      ws.on('error', reject);
    });
    await new Promise((resolve) => ws.once('open', resolve));
    const accepted = await post(url, JSON.stringify(craftPlan('ws-plan')));
    expect(accepted.status).toBe(202);
    expect(await json(accepted)).toEqual({
      success: true,
      planId: 'ws-plan',
      bot: 'verbtree',
      status: 'accepted',
      steps: 1,
      run: '/api/runs/ws-plan',
      events: '/api/events',
    });
    await ended;
    ws.close();
    // Other event types (bot.state samples, agent state) interleave; the run's own events arrive in order.
    const lifecycle = new Set([
      'hello',
      'plan.accepted',
      'step.started',
      'step.firstAction',
      'step.ended',
      'plan.ended',
    ]);
    expect(messages.map((m) => m.type).filter((t) => lifecycle.has(t))).toEqual([
      'hello',
      'plan.accepted',
      'step.started',
      'step.firstAction',
      'step.ended',
      'plan.ended',
    ]);
    expect(messages.find((m) => m.type === 'step.started')).toMatchObject({
      planId: 'ws-plan',
      stepId: 'planks',
      verb: 'craft_item',
    });
    expect((await journal.plan('ws-plan'))?.status).toBe('succeeded');

    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    const text = await metrics.text();
    expect(text).toContain('# TYPE verbtree_step_ttfa_ms histogram');
    const samples = parsePrometheus(text);
    expect(samples.get('verbtree_step_outcomes_total{verb="craft_item",code="ok"}')).toBeGreaterThanOrEqual(1);
    expect(samples.get('verbtree_step_ttfa_ms_count{verb="craft_item"}')).toBeGreaterThanOrEqual(1);
    expect(samples.get('verbtree_step_ttfa_ms_bucket{le="+Inf",verb="craft_item"}')).toBe(
      samples.get('verbtree_step_ttfa_ms_count{verb="craft_item"}'),
    );

    const capabilities = await json<{
      capabilities: { name: string; sla: { journal: { runs: number } | null; thisProcess: unknown } }[];
    }>(fetch(`${url}/api/capabilities`));
    const craft = capabilities.capabilities.find((c) => c.name === 'craft_item')!;
    expect(craft.sla.journal).toMatchObject({ capability: 'craft_item', successRate: 1 });
    expect(craft.sla.journal?.runs).toBeGreaterThanOrEqual(1);
    expect(craft.sla.thisProcess).toMatchObject({ capability: 'craft_item' });
    expect(capabilities.capabilities.find((c) => c.name === 'navigate')!.sla.journal).toBeNull();
  });

  it('runs a plan to its result with ?wait=true and serves its provenance', async () => {
    const { url } = await serve();
    const response = await fetch(`${url}/api/cognitive/execute?wait=true`, {
      method: 'POST',
      body: JSON.stringify(craftPlan('sync-plan')),
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ success: true, planId: 'sync-plan', result: { ok: true, planId: 'sync-plan' } });
    const provenance = await json<{ provenance: { steps: { step: unknown; attempts: { actions: unknown[] }[] }[] } }>(
      fetch(`${url}/api/runs/sync-plan`),
    );
    expect(provenance.provenance.steps[0]!.step).toMatchObject({
      step_id: 'planks',
      status: 'succeeded',
      capability_version: '1.0.0',
    });
    expect(provenance.provenance.steps[0]!.attempts[0]!.actions[0]).toMatchObject({ command: 'craft' });
    expect((await fetch(`${url}/api/runs/nope`)).status).toBe(404);
  });

  it('refuses (409) a plan the journal holds as running, naming how to continue it', async () => {
    const { url } = await serve();
    expect((await post(url, JSON.stringify(craftPlan('twice')))).status).toBe(202);
    const again = await post(url, JSON.stringify(craftPlan('twice')));
    expect(again.status).toBe(409);
    // The first run still holds the plan's lease: the answer names the holder rather than advising a resume that would
    // lose to it.
    expect((await json<ErrorBody>(again)).error).toMatch(
      /^plan "twice" is held by pid \d+ on .+ \(verbtree serve\) since \S+ \(last heartbeat \d+s ago\): two runs of one plan must not act at once/,
    );
  });
});

describe('every boundary of the API holds', () => {
  it('checks every parameter before a plan starts: a retried 400 never runs it twice', async () => {
    const { url, journal } = await serve();
    for (const query of ['?wait=maybe', '?wiat=true']) {
      const refused = await fetch(`${url}/api/cognitive/execute${query}`, {
        method: 'POST',
        body: JSON.stringify(craftPlan('once')),
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(refused.status).toBe(400);
      expect((await json<ErrorBody>(refused)).error).toMatch(
        /wait must be true or false|unknown query parameter "wiat"/,
      );
    }
    expect(await journal.listRuns()).toEqual([]);
  });

  it('answers a malformed URI with 400, not 500', async () => {
    const { url } = await serve({ bot: false });
    const response = await fetch(`${url}/api/runs/%E0%A4%A`);
    expect(response.status).toBe(400);
    expect((await json<ErrorBody>(response)).error).toContain('malformed percent-encoding');
  });

  it("pages a plan's steps, so no reply holds a whole huge plan", async () => {
    const { url, journal } = await serve({ bot: false });
    const steps = Array.from({ length: 5 }, (_, i) => ({ stepId: `s${i}`, type: 'navigate' }));
    await journal.beginRun({ planId: 'big', intentId: 'i', steps, body: {}, runnerId: null });
    type Page = { provenance: { steps: { step: { step_id: string } }[] }; page: { next: string | null } };
    const first = await json<Page>(fetch(`${url}/api/runs/big?limit=2`));
    expect(first.provenance.steps.map((s) => s.step.step_id)).toEqual(['s0', 's1']);
    expect(first.page).toEqual({ offset: 0, limit: 2, stepsTotal: 5, next: '/api/runs/big?offset=2&limit=2' });
    const last = await json<Page>(fetch(`${url}${'/api/runs/big?offset=4&limit=2'}`));
    expect(last.provenance.steps.map((s) => s.step.step_id)).toEqual(['s4']);
    expect(last.page.next).toBeNull();
    expect((await fetch(`${url}/api/runs/big?limit=5000`)).status).toBe(400);
  });

  it('the event stream needs the token (header or subprotocol), refuses foreign origins, and caps its clients', async () => {
    const { url } = await serve({
      bot: false,
      eventLimits: { maxClients: 2 },
      allowOrigins: ['https://monitor.example'],
    });
    expect(await upgradeStatus(events(url, {}))).toBe(401);
    expect(await upgradeStatus(events(url, { headers: { authorization: 'Bearer wrong' } }))).toBe(401);
    expect(
      await upgradeStatus(
        events(url, { headers: { authorization: `Bearer ${TOKEN}`, origin: 'https://evil.example' } }),
      ),
    ).toBe(403);
    const browser = events(url, { headers: { origin: 'https://monitor.example' } }, [`bearer.${TOKEN}`]);
    expect(await upgradeStatus(browser)).toBe(101);
    const second = events(url);
    expect(await upgradeStatus(second)).toBe(101);
    expect(await upgradeStatus(events(url))).toBe(503);
    browser.close();
    second.close();
  });

  it('ignores what clients send, and closes one sending a big frame', async () => {
    const { url } = await serve();
    const talker = events(url);
    await new Promise((resolve) => talker.once('open', resolve));
    const closed = new Promise<number>((resolve) => talker.once('close', (code) => resolve(code)));
    talker.send('x'.repeat(100 * 1024));
    expect(await closed).toBe(1009);

    const samples = parsePrometheus(await (await fetch(`${url}/metrics`)).text());
    expect(samples.get('verbtree_event_clients_dropped')).toBe(0);
  });
});
