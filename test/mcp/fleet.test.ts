import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { sleep } from '../../src/cli/worker/timing.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { HeldBot } from '../../src/cli/worker/held-bot.js';
import { simIdentity } from '../../src/cli/worlds/sim.js';
import { systemClock } from '../../src/clock/index.js';
import { openJournal } from '../../src/journal/open.js';
import { JournalRunner } from '../../src/journal/runner.js';
import { serveHttp } from '../../src/mcp/http.js';
import { VerbtreeMcp } from '../../src/mcp/server.js';
import { FleetBots } from '../../src/operations/fleet-bots.js';
import { createOperations } from '../../src/operations/index.js';
import { SUPERFLAT_GROUND } from '../../src/world/sim-scenario.js';
import { SimWorld } from '../../src/world/sim/sim-world.js';
import { cli } from '../helpers/cli.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { structured, text } from './helpers.js';

const root = join(import.meta.dirname, '..', '..');
const RUN_CLI = join(root, 'test', 'journal', 'run-cli.ts');
const MINUTE = 60_000;
const registry = createDefaultRegistry();

const cluster = usePostgres();

/**
 * The fleet as the gateway finds it: ann held by worker w1, which is this test's own HeldBot (the worker's code: its
 * queue, its journaled executor, its control watch) on a SimWorld, on a journal connection of its own; bob held by w2,
 * which never reports.
 */
async function fleet(url: string) {
  const journal = await openJournal(url);
  await journal.addBot({ name: 'ann' });
  await journal.addBot({ name: 'bob' });
  const fence = { bot: 'ann', epoch: (await journal.claimBot('ann', 'w1', MINUTE))! };
  expect(await journal.claimBot('bob', 'w2', MINUTE)).toBe(1);
  const runner = await new JournalRunner(journal, {
    kind: 'worker',
    clock: systemClock,
    node: { id: 'w1', takeOverSilentAfterMs: MINUTE },
  }).start();
  const world = SimWorld.create({ clock: systemClock, seed: 1, ground: SUPERFLAT_GROUND, spawn: { x: 0, y: 5, z: 0 } });
  const bot = new HeldBot(fence, 'w1', {
    journal,
    registry,
    extraTreePaths: [],
    runner,
    clock: systemClock,
    say: () => undefined,
    join: () =>
      Promise.resolve({
        world,
        clock: systemClock,
        describe: 'SimWorld',
        descriptor: { world: 'sim', seed: 1, identity: simIdentity(1, undefined) },
        protect: [],
        close: () => world.close(),
      }),
    pollEveryMs: 100,
    planQueued: (_bot, cancel) => sleep(systemClock, 100, cancel),
    graceMs: 1_000,
  });
  await until(() => bot.report() !== null);
  // What the worker's renewal would report of it.
  await journal.reportBots([bot.report()!]);
  return {
    journal,
    world,
    async stop() {
      await bot.stop({ code: 'interrupted', reason: 'the test is over' });
      await runner.stop();
      await journal.close();
    },
  };
}

async function until(done: () => boolean | Promise<boolean>, limitMs = 10_000): Promise<void> {
  const from = Date.now();
  while (!(await done())) {
    if (Date.now() - from > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `verbtree mcp --world none --journal <url>` as a client starts it, with the SDK's Client over stdio. */
async function gateway(url: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', RUN_CLI, 'mcp', '--world', 'none', '--journal', url, '--block-ms', '20000'],
    cwd: root,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'fleet-agent', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const walk = (x: number) => ({ target: { kind: 'near', x, y: 5, z: 0, range: 1 } });
const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('verbtree mcp --world none: an MCP client drives a fleet through the journal', () => {
  it('names the fleet, runs a verb on the bot its holder holds with the verified result, refuses what it cannot do, and a cancelled call cancels the plan', async () => {
    const url = await cluster.database();
    const held = await fleet(url);
    const { client, stderr } = await gateway(url);
    try {
      const tools = (await client.listTools()).tools;
      const navigate = tools.find((t) => t.name === 'navigate')!;
      expect(navigate.inputSchema.required).toContain('bot');
      expect((navigate.inputSchema.properties!.bot as { description: string }).description).toContain('now ann, bob');

      const listed = await call(client, 'list_bots', {});
      expect(structured(listed).bots).toMatchObject([
        { bot: 'ann', holder: 'w1', held: true, epoch: 1, state: 'IDLE', connected: true },
        { bot: 'bob', holder: 'w2', held: true, state: null },
      ]);
      expect(text(listed)).toContain('ann: held by w1 (epoch 1), IDLE');

      const unknown = await call(client, 'navigate', { ...walk(3), bot: 'zed' });
      expect(unknown.isError).toBe(true);
      expect(structured(unknown)).toMatchObject({ error: 'not_found', bots: ['ann', 'bob'] });
      expect(text(unknown)).toContain('no bot "zed" in the fleet; its bots are ann, bob');
      const unnamed = await call(client, 'navigate', walk(3));
      expect(unnamed.isError).toBe(true);
      expect(text(unnamed)).toContain('bot: is required on a fleet gateway: name the bot to act with, one of ann, bob');

      // A verb on ann: queued for w1, run there, answered from the journal with what was verified in ann's world.
      const progress: string[] = [];
      const walked = (await client.callTool({ name: 'navigate', arguments: { ...walk(8), bot: 'ann' } }, undefined, {
        onprogress: (p) => progress.push(p.message ?? ''),
      })) as CallToolResult;
      expect(walked.isError, text(walked)).toBeUndefined();
      const done = structured(walked);
      expect(done).toMatchObject({ status: 'succeeded', bot: 'ann' });
      expect(done.steps).toEqual([
        expect.objectContaining({ stepId: 'navigate', verb: 'navigate', verified: [expect.stringMatching(/8/)] }),
      ]);
      expect(held.world.position().x).toBeGreaterThan(6);
      expect(progress.some((m) => /navigate \(navigate\) started|blocks? left/.test(m))).toBe(true);

      const seen = await call(client, 'observe', { bot: 'ann' });
      expect(seen.isError).toBeUndefined();
      expect(structured(seen)).toMatchObject({ source: 'holder_report', bot: 'ann', holder: 'w1' });
      const unseen = await call(client, 'observe', { bot: 'bob' });
      expect(unseen.isError).toBe(true);
      expect(text(unseen)).toContain('w2 holds bob but has not reported it yet');

      // A long walk, its call cancelled by the client: the plan is cancelled through the journal, where w1 ends it.
      const abort = new AbortController();
      const far = client
        .callTool({ name: 'run_plan', arguments: { bot: 'ann', plan: farPlan } }, undefined, { signal: abort.signal })
        .catch((error: unknown) => error);
      await until(async () => (await held.journal.plan('far'))?.status === 'running');
      const replaced = await call(client, 'replace_remaining', { planId: 'far', steps: [] });
      expect(replaced.isError).toBe(true);
      expect(text(replaced)).toContain('cancel it and queue the steps still wanted as a new plan');
      const from = held.world.position().x;
      abort.abort('the agent changed its mind');
      expect(await far).toBeInstanceOf(Error);
      await until(async () => (await held.journal.plan('far'))?.status === 'cancelled');
      const record = (await held.journal.planProvenance('far', { offset: 0, limit: 10 }))!;
      expect(record.runs.at(-1)).toMatchObject({ ok: 0, code: 'aborted' });
      expect(record.steps[0]!.step).toMatchObject({ step_id: 'walk', status: 'failed', outcome_code: 'aborted' });
      expect(held.world.position().x).toBeLessThan(from + 20);
      const ended = await call(client, 'get_run', { planId: 'far' });
      expect(structured(ended)).toMatchObject({ status: 'cancelled', code: 'aborted', bot: 'ann' });
      expect(stderr()).toContain('fleet gateway, bots ann, bob');
    } finally {
      await client.close();
      await held.stop();
    }
  }, 30_000);

  it('list_bots shows a plan no worker takes as queued, with why and since when', async () => {
    const url = await cluster.database();
    const journal = await openJournal(url);
    await journal.addBot({ name: 'ann' });
    await journal.addBot({ name: 'bob' });
    const { client } = await gateway(url);
    try {
      const start = await call(client, 'start_plan', { bot: 'ann', plan: farPlan });
      expect(structured(start)).toMatchObject({ status: 'started', planId: 'far', queued: true });
      const since = (await journal.plan('far'))!.created_at;
      const listed = await call(client, 'list_bots', {});
      expect(listed.isError).toBeUndefined();
      const detail = 'no worker holds the bot (each takes bots only while it has headroom and capacity)';
      expect(structured(listed).bots).toMatchObject([
        { bot: 'ann', held: false, queued: 1, waiting: { planId: 'far', reason: 'no_holder', detail, since } },
        { bot: 'bob', held: false, queued: 0, waiting: null },
      ]);
      expect(text(listed).split('\n').slice(0, 2)).toEqual([
        `ann: not held, not reported, 1 queued (plan far queued since ${new Date(since).toISOString()}: ${detail})`,
        'bob: not held, not reported',
      ]);
    } finally {
      await client.close();
      await journal.close();
    }
  }, 30_000);

  it('serves the same over Streamable HTTP (the server the command makes, in this process)', async () => {
    const url = await cluster.database();
    const journal = await openJournal(url);
    await journal.addBot({ name: 'cy' });
    const bots = new FleetBots(journal);
    const operations = createOperations({ registry, journal, bots, clock: systemClock });
    const mcp = new VerbtreeMcp({ operations, registry, bots });
    const http = await serveHttp(mcp, { port: 0, token: 't' });
    const client = new Client({ name: 'fleet-http', version: '1.0.0' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), {
          requestInit: { headers: { authorization: 'Bearer t' } },
        }),
      );
      const start = await call(client, 'start_plan', { bot: 'cy', plan: farPlan });
      expect(structured(start)).toMatchObject({ status: 'started', planId: 'far', bot: 'cy', queued: true });
      expect(text(start)).toContain('queued plan far (1 step) for the worker that holds cy');
      // Nobody holds cy: the plan waits in the queue, and a cancel there ends it at once.
      const cancelled = await call(client, 'cancel_run', { planId: 'far' });
      expect(structured(cancelled)).toMatchObject({ status: 'cancelled', ended: true });
      expect((await journal.plan('far'))?.status).toBe('cancelled');
      const ended = await call(client, 'get_run', { planId: 'far' });
      expect(structured(ended)).toMatchObject({ status: 'cancelled', code: 'aborted', bot: 'cy' });
      const nobody = await call(client, 'observe', { bot: 'cy' });
      expect(nobody.isError).toBe(true);
      expect(text(nobody)).toContain('no worker holds cy now (no worker has claimed it yet)');

      // The server stops while a call waits for its plan: the call's cancel reaches the journal before close returns.
      void call(client, 'run_plan', { bot: 'cy', plan: { ...farPlan, planId: 'left' } }).catch(() => undefined);
      await until(async () => (await journal.plan('left'))?.status === 'queued');
      await mcp.close();
      expect(await journal.plan('left')).toMatchObject({ status: 'cancelled' });
    } finally {
      await client.close();
      await http.close();
      await mcp.close();
      await journal.close();
    }
  });

  it('refuses --world none without the fleet journal, or with a bot of its own, naming the fix', async () => {
    const noJournal = await cli('mcp', '--world', 'none');
    expect(noJournal.code).toBe(2);
    expect(noJournal.err).toContain(
      "--world none serves a fleet's journal, and names none: give --journal postgres://",
    );
    const withBots = await cli('mcp', '--world', 'none', '--journal', cluster.url(), '--bots', '2');
    expect(withBots.code).toBe(2);
    expect(withBots.err).toContain('--bots applies to bots of this process, and --world none has none');
  });
});

const farPlan = {
  planId: 'far',
  intentId: 'i-far',
  steps: [{ stepId: 'walk', type: 'navigate', args: walk(300) }],
};
