import { Validator } from '@seriousme/openapi-schema-validator';
import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ROUTES, type RouteSpec } from '../../src/api/contract/route-table.js';
import { ErrorBody } from '../../src/api/contract/schemas.js';
import { AUTH, serveSim } from './serve-sim.js';

type Operation = { responses: Record<string, unknown>; parameters?: { name: string; in: string }[] };
type OpenApi = { openapi: string; paths: Record<string, Record<string, Operation>> };

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

async function serve(): Promise<string> {
  const served = await serveSim({ inventory: { oak_log: 4 } });
  closers.push(served.close);
  return served.url;
}

/** The template with each `{param}` filled: a plan id, a tree's name, a file. */
const probePath = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => `probe-${name}`);

/** Whether the server answered a request as a route it has (even to refuse it), not as a path it does not serve. */
async function isMiss(response: Response): Promise<boolean> {
  if (response.status === 405) return true;
  if (response.status !== 404) return false;
  const body = (await response.json()) as { error: string };
  return body.error.startsWith('no route') || body.error.startsWith('control routes are');
}

/** Checks a response's body against the table's schema for its status (an ErrorBody for a refusal). */
async function expectDocumented(route: RouteSpec, response: Response): Promise<unknown> {
  const body: unknown = await response.json();
  const answer = (route.responses as Record<number, { schema?: z.ZodType }>)[response.status];
  const schema = answer?.schema ?? (route.errors.includes(response.status) ? ErrorBody : undefined);
  expect(schema, `${route.method} ${route.path} answered an undocumented ${response.status}`).toBeDefined();
  const parsed = schema!.safeParse(body);
  expect(parsed.success, `${route.path} ${response.status}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  return body;
}

describe('the OpenAPI contract at /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const url = await serve();
    const document = (await (await fetch(`${url}/api/openapi.json`)).json()) as OpenApi;
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const execute = document.paths['/api/cognitive/execute']!.post!;
    expect(Object.keys(execute.responses).sort()).toEqual([
      '200',
      '202',
      '400',
      '401',
      '404',
      '409',
      '413',
      '422',
      '503',
    ]);
    expect(execute.parameters?.map((p) => p.name)).toEqual(['wait', 'bot']);
    expect(execute.responses['401']).toMatchObject({ headers: { 'www-authenticate': {} } });
  });

  it('names every route the server answers, and the server answers every route it names', async () => {
    const url = await serve();
    const document = (await (await fetch(`${url}/api/openapi.json`)).json()) as OpenApi;
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(
      Object.values(ROUTES)
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    );
    for (const [path, methods] of Object.entries(document.paths)) {
      const probe = `${url}${probePath(path)}`;
      for (const method of Object.keys(methods)) {
        const answer = await fetch(probe, { method: method.toUpperCase(), redirect: 'manual', headers: AUTH });
        expect(await isMiss(answer), `${method} ${path} is documented but the server does not serve it`).toBe(false);
      }
      // Every other method on a documented path is refused as one the route does not take, naming the ones it does.
      for (const other of ['GET', 'POST', 'PUT', 'DELETE'].filter((m) => !(m.toLowerCase() in methods))) {
        const answer = await fetch(probe, { method: other, headers: AUTH });
        expect(answer.status, `${other} ${path}`).toBe(405);
        expect(answer.headers.get('allow')?.toLowerCase().split(', ').sort()).toEqual(Object.keys(methods).sort());
      }
    }
    for (const undocumented of ['/api/nothing', '/api/runs/a/b/c', '/api/health/', '/metrics/x']) {
      const answer = await fetch(`${url}${undocumented}`);
      expect(await isMiss(answer), undocumented).toBe(true);
    }
  });

  it('answers with the bodies the document gives, refusals included', async () => {
    const url = await serve();
    const get = (path: string) => fetch(`${url}${path}`, { headers: AUTH });
    const execute = (query: string, body: unknown, headers = AUTH) =>
      fetch(`${url}/api/cognitive/execute${query}`, { method: 'POST', body: JSON.stringify(body), headers });
    const plan = {
      planId: 'contract',
      intentId: 'planks',
      steps: [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }],
    };
    await expectDocumented(ROUTES.execute, await execute('?wait=true', plan));
    await expectDocumented(ROUTES.execute, await execute('', { ...plan, planId: 'contract-2' }));
    const failed = {
      ...plan,
      planId: 'too-many',
      steps: [{ ...plan.steps[0], args: { item: 'oak_planks', count: 64 } }],
    };
    const ended = (await expectDocumented(ROUTES.execute, await execute('?wait=true', failed))) as {
      result: { ok: boolean };
    };
    expect(ended.result.ok).toBe(false);
    const status = (await expectDocumented(ROUTES.runStatus, await get('/api/runs/too-many/status'))) as {
      run: { failure: { code: string; evidence: unknown[] } };
    };
    expect(status.run.failure.evidence.length).toBeGreaterThan(0);
    for (const [route, path] of [
      [ROUTES.health, '/api/health'],
      [ROUTES.incidents, '/api/incidents?unresolved=true'],
      [ROUTES.capabilities, '/api/capabilities'],
      [ROUTES.canaries, '/api/canaries'],
      [ROUTES.bots, '/api/bots'],
      [ROUTES.botStatus, '/api/bot/status'],
      [ROUTES.runs, '/api/runs'],
      [ROUTES.provenance, '/api/runs/contract'],
      [ROUTES.runStatus, '/api/runs/contract/status?waitMs=5000'],
      [ROUTES.nodeStates, '/api/runs/contract/nodes'],
      [ROUTES.planEvents, '/api/runs/contract/events?limit=2'],
      [ROUTES.trees, '/api/trees'],
      [ROUTES.tree, '/api/trees/craft_item'],
      [ROUTES.provenance, '/api/runs/nope'],
      [ROUTES.capabilities, '/api/capabilities?bott=verbtree'],
      [ROUTES.planEvents, '/api/runs/contract/events?after=x'],
      [ROUTES.events, '/api/events'],
    ] as const) {
      await expectDocumented(route, await get(path));
    }
    await expectDocumented(ROUTES.execute, await execute('', plan, { authorization: 'Bearer wrong' }));
    await expectDocumented(ROUTES.execute, await execute('', { ...plan, steps: [{ stepId: 's', type: 'fly' }] }));
    const cancel = await fetch(`${url}/api/plans/contract/cancel`, { method: 'POST', headers: AUTH });
    await expectDocumented(ROUTES.cancel, cancel);
  });
});
