import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { systemClock } from '../../src/clock/index.js';
import { apiBot } from '../../src/api/bots.js';
import { createApiServer } from '../../src/api/server.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { SimWorld } from '../../src/world/sim/index.js';
import { cli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { openTemp } from '../journal/helpers.js';
import { match } from '../helpers/matchers.js';

const TOKEN = 'steer';
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

async function serve() {
  const { path, journal } = openTemp();
  const world = SimWorld.create({ clock: systemClock });
  const assembly = await assembleJournaled({
    registry: createDefaultRegistry(),
    world,
    clock: systemClock,
    journal,
    kind: 'serve',
  });
  closers.push(() => assembly.close());
  const events: { type: string; planId?: string }[] = [];
  assembly.executor.events.on('event', (event) => events.push(event));
  const api = createApiServer({
    journal,
    journalPath: path,
    registry: createDefaultRegistry(),
    token: TOKEN,
    selfRunnerId: assembly.process.id,
    bots: [apiBot('verbtree', assembly)],
  });
  const { url } = await api.listen(0);
  closers.push(() => api.close());
  return { url, journal, events };
}

/** A walk long enough (200 blocks) to still be under way while it is steered. */
const longWalk = (planId: string) => ({
  planId,
  intentId: 'i',
  steps: [{ stepId: 'far', type: 'navigate', args: { target: { kind: 'block', x: 200, y: 0, z: 0 } } }],
});
const start = (url: string, plan: unknown) =>
  fetch(`${url}/api/cognitive/execute`, {
    method: 'POST',
    body: JSON.stringify(plan),
    headers: { authorization: `Bearer ${TOKEN}` },
  });
const steer = (url: string, planId: string, action: string, body?: unknown, token = TOKEN) =>
  fetch(`${url}/api/plans/${planId}/${action}`, {
    method: 'POST',
    ...(body ? { body: JSON.stringify(body) } : {}),
    headers: { authorization: `Bearer ${token}` },
  });

describe('steering a running plan over the HTTP API', () => {
  it('pause, resume, replace and cancel: each answers what it did, refuses what changes nothing, and is an event', async () => {
    const { url, events, journal } = await serve();
    expect((await start(url, longWalk('walk'))).status).toBe(202);
    expect((await steer(url, 'walk', 'pause', undefined, 'wrong')).status).toBe(401);
    expect((await steer(url, 'nope', 'pause')).status).toBe(404);
    expect((await steer(url, 'walk', 'fly')).status).toBe(404);

    const seen = async (type: string) => {
      for (let i = 0; i < 500 && !events.some((e) => e.type === type); i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      return events.some((e) => e.type === type);
    };
    expect(await (await steer(url, 'walk', 'pause', { reason: 'look around' })).json()).toEqual({
      success: true,
      planId: 'walk',
      action: 'pause',
    });
    expect((await steer(url, 'walk', 'pause')).status).toBe(409);
    // The pause takes hold at the next safe point (the walk stops where it is).
    expect(await seen('plan.paused')).toBe(true);
    expect((await steer(url, 'walk', 'resume')).status).toBe(200);
    expect(await seen('plan.resumed')).toBe(true);
    expect((await steer(url, 'walk', 'resume')).status).toBe(409);

    const refused = await steer(url, 'walk', 'replace', { steps: [{ stepId: 'x', type: 'teleport', args: {} }] });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: string }).error).toContain('unknown verb "teleport"');
    const replaced = await steer(url, 'walk', 'replace', {
      steps: [{ stepId: 'home', type: 'navigate', args: { target: { kind: 'near', x: 0, y: 0, z: 0, range: 2 } } }],
    });
    expect(await replaced.json()).toMatchObject({ success: true, action: 'replace', steps: 1 });

    expect((await steer(url, 'walk', 'cancel', { reason: 'operator stop' })).status).toBe(200);
    expect(await seen('plan.ended')).toBe(true);
    // The replacement waited for the running step, which the cancel ended first: it was never applied.
    expect(events.map((e) => e.type).filter((t) => t.startsWith('plan.'))).toEqual([
      'plan.accepted',
      'plan.paused',
      'plan.resumed',
      'plan.cancelled',
      'plan.ended',
    ]);
    const far = (await journal.planProvenance('walk'))!.steps.find((s) => s.step.step_id === 'far');
    expect(far?.step.status).not.toBe('in_progress');
    // Ended: nothing left to steer.
    expect((await steer(url, 'walk', 'resume')).status).toBe(404);
  });

  it('verbtree control does the same from the command line, with exit codes and messages that say why', async () => {
    const { url } = await serve();
    expect((await start(url, longWalk('cli-walk'))).status).toBe(202);
    expect(await cli('control', 'pause', 'cli-walk', '--url', url, '--token', TOKEN)).toMatchObject({
      code: 0,
      out: '✓ pause cli-walk\n',
    });
    const again = await cli('control', 'pause', 'cli-walk', '--url', url, '--token', TOKEN);
    expect(again.code).toBe(1);
    expect(again.err).toContain('refused (409): plan "cli-walk" is already paused or has ended');
    const dir = await tempDir('verbtree-control-');
    const steps = join(dir, 'home.json');
    writeFileSync(
      steps,
      JSON.stringify([
        { stepId: 'home', type: 'navigate', args: { target: { kind: 'near', x: 0, y: 0, z: 0, range: 2 } } },
      ]),
    );
    expect(await cli('control', 'replace', 'cli-walk', '--steps', steps, '--url', url, '--token', TOKEN)).toMatchObject(
      { code: 0, out: '✓ replace cli-walk: 1 step(s) now remain\n' },
    );
    expect(await cli('control', 'cancel', 'cli-walk', '--url', url, '--token', TOKEN)).toMatchObject({ code: 0 });

    const saved = process.env.VERBTREE_TOKEN;
    delete process.env.VERBTREE_TOKEN;
    const noToken = await cli('control', 'pause', 'cli-walk', '--url', url);
    if (saved !== undefined) process.env.VERBTREE_TOKEN = saved;
    expect(noToken.code).toBe(2);
    expect(noToken.err).toContain('--token');
    expect(await cli('control', 'replace', 'cli-walk', '--url', url, '--token', TOKEN)).toMatchObject({
      code: 2,
      err: match.stringContaining('replace needs --steps'),
    });
    const offline = await cli('control', 'pause', 'cli-walk', '--url', 'http://127.0.0.1:9', '--token', TOKEN);
    expect(offline.code).toBe(2);
    expect(offline.err).toContain('cannot reach http://127.0.0.1:9');
  });
});
