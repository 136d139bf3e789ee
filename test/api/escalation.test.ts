import { afterEach, describe, expect, it } from 'vitest';
import { EscalationReply } from '../../src/api/contract/schemas.js';
import { systemClock } from '../../src/clock/index.js';
import { ClientEscalations } from '../../src/mcp/escalation.js';
import { AUTH, serveSim } from './serve-sim.js';
import { planks, walk } from '../helpers/escalation-plans.js';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers = [];
});

async function serve(escalations?: ClientEscalations): Promise<string> {
  const served = await serveSim(escalations ? { escalations } : {});
  closers.push(served.close);
  return served.url;
}

const call = async (url: string, path: string, body?: unknown) => {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: AUTH,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: string } };
};

describe('failures held for HTTP clients (serve --escalate-to-client)', () => {
  it('shows the held failure with its code and evidence, and goes on with the steps a replace sends', async () => {
    const url = await serve(new ClientEscalations(systemClock, 600_000));
    expect((await call(url, '/api/cognitive/execute', planks('wood'))).status).toBe(202);
    const held = await call(url, '/api/runs/wood/escalation?waitMs=30000');
    expect(held).toMatchObject({
      status: 200,
      body: {
        success: true,
        planId: 'wood',
        status: 'running',
        escalation: { planId: 'wood', stepId: 'planks', verb: 'craft_item', code: 'precondition_missing', rung: 1 },
      },
    });
    expect(EscalationReply.safeParse(held.body).error).toBeUndefined();
    // Its deadline is epoch ms, as the schema says: 600 s from when it was held, not the system clock's uptime ms.
    const { deadlineAt } = held.body.escalation as { deadlineAt: number };
    expect(deadlineAt).toBeGreaterThan(Date.now() + 500_000);
    expect(deadlineAt).toBeLessThanOrEqual(Date.now() + 600_000);
    const evidence = (held.body.escalation as { evidence: { type: string }[] }).evidence;
    expect(evidence.at(-1)?.type).toBe('step.ended');
    // A replacement reusing a step id already run is refused, and the failure is still held.
    const reused = await call(url, '/api/plans/wood/replace', { steps: [walk('planks', 3)] });
    expect(reused.status).toBe(422);
    expect(reused.body.error).toContain('planks');
    expect((await call(url, '/api/runs/wood/escalation')).body.escalation).toMatchObject({ stepId: 'planks' });
    const answered = await call(url, '/api/plans/wood/replace', { steps: [walk('instead', 3)] });
    expect(answered).toMatchObject({ status: 200, body: { action: 'replace', escalationAnswered: true } });
    const ended = await call(url, '/api/runs/wood/status?waitMs=30000');
    expect(ended.body.run).toMatchObject({ status: 'succeeded' });
    expect((await call(url, '/api/runs/wood/escalation')).body).toMatchObject({
      status: 'succeeded',
      escalation: null,
    });
  });

  it('a cancel ends a held plan at once; a server holding nothing says how to start one that does', async () => {
    const url = await serve(new ClientEscalations(systemClock, 600_000));
    await call(url, '/api/cognitive/execute', planks('two'));
    expect((await call(url, '/api/runs/two/escalation?waitMs=30000')).body.escalation).not.toBeNull();
    expect((await call(url, '/api/plans/two/cancel', { reason: 'no other way' })).status).toBe(200);
    const ended = await call(url, '/api/runs/two/status?waitMs=30000');
    expect(ended.body.run).toMatchObject({ status: 'cancelled' });
    expect((await call(url, '/api/runs/nope/escalation')).status).toBe(404);

    const plain = await serve();
    const none = await call(plain, '/api/runs/two/escalation');
    expect(none.status).toBe(404);
    expect(none.body.error).toContain('serve --escalate-to-client');
  });
});
