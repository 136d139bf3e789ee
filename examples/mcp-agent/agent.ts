/*
 * A scripted agent that reaches a stone pickaxe through verbtree's MCP tools alone, as an LLM agent would: it starts
 * `verbtree mcp` over stdio against the embedded world (the stone-age scenario: an empty pack, trees and a stone
 * outcrop nearby), reads the tool list, and calls one verb tool per step, reading each answer: an ok names what
 * was verified in the world; a running handle is followed with get_run; a failure says its code and whether a
 * retry may help, and the agent looks (observe) before it tries again. It imports nothing of verbtree.
 *
 *   npx tsx examples/mcp-agent/agent.ts [--journal file] [--scenario file]
 *
 * (`npm run build` first: it runs the compiled CLI, bin/verbtree.js, as `npx verbtree mcp` would.)
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const root = join(import.meta.dirname, '..', '..');

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

/**
 * What the agent wants, in order: each a tool call, skipped when the pack already holds what it is for. The
 * searches keep collect_block's default radius (32): the scenario's trees and stone lie within 12 blocks, and a
 * 48-block search holds the event loop seconds longer (the bot's keep-alive with it).
 */
const GOALS = [
  { tool: 'collect_block', args: { block: 'oak_log', count: 4 }, holds: ['oak_log', 4] },
  { tool: 'craft_item', args: { item: 'wooden_pickaxe', count: 1 }, holds: ['wooden_pickaxe', 1] },
  { tool: 'collect_block', args: { block: '#stone', count: 3 }, holds: ['cobblestone', 3] },
  { tool: 'craft_item', args: { item: 'stone_pickaxe', count: 1 }, holds: ['stone_pickaxe', 1] },
] as const;

/** Tries of one goal before the agent gives up on it. */
const TRIES = 3;

const started = Date.now();
const say = (line: string) => console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${line}`);
const firstLine = (result: CallToolResult) =>
  (result.content as { type: string; text?: string }[]).find((c) => c.type === 'text')?.text?.split('\n')[0] ?? '';
const structured = (result: CallToolResult) => (result.structuredContent ?? {}) as Record<string, unknown>;

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [
    join(root, 'bin', 'verbtree.js'),
    'mcp',
    '--scenario',
    option('--scenario', join(root, 'examples', 'scenarios', 'stone-age.json')),
    '--journal',
    option('--journal', join(root, '.verbtree', 'mcp-agent.db')),
  ],
  cwd: root,
  stderr: 'inherit',
});
const client = new Client({ name: 'verbtree-mcp-agent', version: '1.0.0' });

async function call(tool: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name: tool, arguments: args }, undefined, {
    onprogress: (p) => say(`    … ${p.message ?? p.progress}`),
    // Progress keeps a long step's call alive; the server answers with a handle before 25 s anyway.
    resetTimeoutOnProgress: true,
  })) as CallToolResult;
}

/** A call's final answer: a running handle is followed with get_run until the run ends. */
async function settle(result: CallToolResult): Promise<CallToolResult> {
  let answer = result;
  while (!answer.isError && structured(answer).status === 'running') {
    say(`  ${firstLine(answer)}`);
    answer = await call('get_run', { planId: structured(answer).planId, waitMs: 20_000 });
  }
  return answer;
}

/** The steps the plan itself asked for (not the sub-goals they ran) and what each was verified to do. */
const verifiedSteps = (answer: CallToolResult) =>
  ((structured(answer).steps ?? []) as { stepId: string; parentStepId?: string; verified: string[] }[]).filter(
    (step) => step.parentStepId === undefined,
  );

async function pack(): Promise<Record<string, number>> {
  return structured(await call('observe', { radius: 0 })).inventory as Record<string, number>;
}

/** One goal, tried until its answer is ok or a failure says trying again will not help. */
async function reach(goal: (typeof GOALS)[number]): Promise<boolean> {
  const [item, count] = goal.holds;
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    if (((await pack())[item] ?? 0) >= count) return true;
    say(`${goal.tool} ${JSON.stringify(goal.args)}${attempt > 1 ? ` (try ${attempt})` : ''}`);
    const answer = await settle(await call(goal.tool, goal.args));
    say(`  ${firstLine(answer)}`);
    if (!answer.isError) {
      for (const step of verifiedSteps(answer)) say(`    ✓ ${step.stepId}: ${step.verified.join('; ')}`);
      return true;
    }
    if (structured(answer).retryable !== true) return false;
  }
  return false;
}

await client.connect(transport);
try {
  const tools = (await client.listTools()).tools.map((t) => t.name);
  say(`connected: ${tools.length} tools (${tools.slice(0, 6).join(', ')}, …)`);
  let reached = true;
  for (const goal of GOALS) {
    if (!(await reach(goal))) {
      reached = false;
      break;
    }
  }
  const held = (await pack()).stone_pickaxe ?? 0;
  say(reached && held >= 1 ? `✓ stone_pickaxe in the pack (${held}), as the world holds it` : '✗ no stone_pickaxe');
  process.exitCode = reached && held >= 1 ? 0 : 1;
} finally {
  await client.close();
}
