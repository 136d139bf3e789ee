import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { exportJsonSchemas } from '../../src/registry/json-schema.js';
import { mcpOnSim, onClock } from './helpers.js';

const walkPlan = (planId: string, x: number) => ({
  planId,
  intentId: 'i',
  steps: [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x, y: 0, z: 0 } } }],
});

const json = (contents: readonly object[]) =>
  JSON.parse(String((contents[0] as { text?: unknown }).text)) as Record<string, unknown>;

describe('resources', () => {
  it('list the bots, each bot, the runs and the registry, with templates for a bot and a run', async () => {
    const { client, registry } = await mcpOnSim({ names: ['ada', 'bo'] });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'verbtree://bots',
      'verbtree://runs',
      'verbtree://registry',
      'verbtree://bots/ada',
      'verbtree://bots/bo',
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['verbtree://bots/{bot}', 'verbtree://runs/{planId}']);
    const read = await client.readResource({ uri: 'verbtree://registry' });
    expect(json(read.contents).capabilities).toEqual(exportJsonSchemas(registry));
    const bo = json((await client.readResource({ uri: 'verbtree://bots/bo' })).contents);
    expect(bo).toMatchObject({ attached: true, bot: 'bo', connected: true, state: 'IDLE' });
    await expect(client.readResource({ uri: 'verbtree://bots/cy' })).rejects.toThrow('no bot "cy" here');
  });

  it('a subscribed run is updated as it goes and when it ends; reading it then shows its end and what was verified', async () => {
    const { client, clock, ops } = await mcpOnSim();
    const updates: { at: number; uri: string }[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push({ at: clock.now(), uri: n.params.uri });
    });
    await client.subscribeResource({ uri: 'verbtree://runs/far' });
    await client.subscribeResource({ uri: 'verbtree://bots/ada' });
    await onClock(clock, client.callTool({ name: 'start_plan', arguments: { plan: walkPlan('far', 10) } }));
    const running = json((await client.readResource({ uri: 'verbtree://runs/far' })).contents);
    expect(running).toMatchObject({ planId: 'far', status: 'running' });
    let ended = false;
    const onEnd = client
      .callTool({ name: 'get_run', arguments: { planId: 'far', waitMs: 25_000 } })
      .then(() => (ended = true));
    await onClock(clock, onEnd);
    expect(ended).toBe(true);
    const runUpdates = updates.filter((u) => u.uri === 'verbtree://runs/far');
    expect(runUpdates.length).toBeGreaterThanOrEqual(2);
    const final = json((await client.readResource({ uri: 'verbtree://runs/far' })).contents);
    expect(final).toMatchObject({
      status: 'succeeded',
      verified: [{ stepId: 'walk', verified: ['the bot stands on (10, 0, 0)'] }],
    });
    // An update came when the run ended.
    const events = await ops.planEvents('far');
    const endedAt = events.rows.find((row) => row.type === 'plan.ended')!.at;
    expect(runUpdates.some((u) => u.at >= endedAt)).toBe(true);
    // The bot moved while it was subscribed: its state was sampled and updated.
    expect(updates.filter((u) => u.uri === 'verbtree://bots/ada').length).toBeGreaterThanOrEqual(2);
    // Unsubscribed, a run says nothing more.
    await client.unsubscribeResource({ uri: 'verbtree://runs/far' });
    const before = updates.length;
    await onClock(clock, client.callTool({ name: 'run_plan', arguments: { plan: walkPlan('far', 0) } }));
    expect(updates.slice(before).filter((u) => u.uri === 'verbtree://runs/far')).toEqual([]);
  });

  it('an unsubscribed resource says nothing more, not even an update that was waiting for its slot', async () => {
    const { client, clock } = await mcpOnSim();
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await client.subscribeResource({ uri: 'verbtree://runs/far' });
    // Accepted and started at once: the first change is sent, the second waits for its slot.
    await onClock(clock, client.callTool({ name: 'start_plan', arguments: { plan: walkPlan('far', 30) } }));
    await client.unsubscribeResource({ uri: 'verbtree://runs/far' });
    const before = updates.length;
    expect(before).toBe(1);
    await onClock(clock, client.callTool({ name: 'get_run', arguments: { planId: 'far', waitMs: 25_000 } }));
    expect(updates.length).toBe(before);
  });
});
