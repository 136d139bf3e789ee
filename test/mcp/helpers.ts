import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { onTestFinished } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { ManualClock } from '../../src/clock/index.js';
import { injectFaults } from '../../src/executor/fault-injection.js';
import { assembleJournaled } from '../../src/journal/journaled-executor.js';
import { ClientEscalations } from '../../src/mcp/escalation.js';
import { VerbtreeMcp } from '../../src/mcp/server.js';
import { createOperations, LocalBots, localBot, type LocalBot } from '../../src/operations/index.js';
import type { CapabilityRegistry } from '../../src/registry/registry.js';
import { parseFaultSpecs } from '../../src/world/faults/parse.js';
import { SimWorld, type SimWorldOptions } from '../../src/world/sim/index.js';
import { openTemp } from '../journal/helpers.js';

export interface SimSetup {
  names?: string[];
  world?: Partial<SimWorldOptions>;
  /** `--fault` specs, e.g. navigate=hang. */
  faults?: string[];
  blockMs?: number;
  /** Hold failures for the client (`--escalate-to-client`), ending each after this long. */
  escalateMs?: number;
  registry?: CapabilityRegistry;
  /** A project's own tree folders, for its own verbs. */
  extraTreePaths?: string[];
}

/**
 * verbtree's MCP server over journaled SimWorld bots on a manual clock, and the SDK's own Client talking to it in
 * memory; all closed when the calling test finishes (its own onTestFinished, last opened first closed).
 */
export async function mcpOnSim(setup: SimSetup = {}) {
  const registry = setup.registry ?? createDefaultRegistry();
  const clock = new ManualClock();
  const { journal } = openTemp();
  const escalations = setup.escalateMs === undefined ? undefined : new ClientEscalations(clock, setup.escalateMs);
  const faults = parseFaultSpecs(setup.faults ?? []);
  const worlds: SimWorld[] = [];
  const bots: LocalBot[] = [];
  for (const name of setup.names ?? ['ada']) {
    const sim = SimWorld.create({ clock, ...setup.world });
    const assembly = await assembleJournaled({
      registry,
      world: sim,
      clock,
      journal,
      kind: 'test',
      extraTreePaths: setup.extraTreePaths ?? [],
      wrapInvoker: (invoker) => injectFaults(invoker, faults, { clock }),
      ...(escalations
        ? { planner: escalations.planner, policy: { escalation: { plannerTimeoutMs: escalations.plannerTimeoutMs } } }
        : {}),
    });
    onTestFinished(() => assembly.close());
    worlds.push(sim);
    bots.push(localBot(name, assembly));
  }
  const local = new LocalBots(bots);
  const ops = createOperations({ registry, journal, bots: local, clock });
  const mcp = new VerbtreeMcp({
    operations: ops,
    registry,
    bots: local,
    clock,
    ...(setup.blockMs ? { blockMs: setup.blockMs } : {}),
    ...(escalations ? { escalations } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.createSession().connect(serverSide);
  const client = new Client({ name: 'verbtree-test', version: '1.0.0' });
  await client.connect(clientSide);
  onTestFinished(async () => {
    await client.close();
    await mcp.close();
  });
  return { registry, clock, journal, worlds, ops, mcp, client };
}

/** Settles `promise` while the manual clock runs, at most `maxMs` of virtual time. */
export async function onClock<T>(clock: ManualClock, promise: Promise<T>, maxMs = 120_000): Promise<T> {
  let settled: { value: T } | { error: unknown } | undefined;
  promise.then(
    (value) => (settled = { value }),
    (error: unknown) => (settled = { error }),
  );
  await clock.runUntil(() => settled !== undefined, maxMs);
  if (!settled) throw new Error(`not settled within ${maxMs} ms of virtual time`);
  if ('error' in settled) throw settled.error;
  return settled.value;
}

/** A tool result's structured content, typed loosely for assertions. */
export const structured = (result: unknown) => (result as CallToolResult).structuredContent as Record<string, unknown>;
export const text = (result: unknown) =>
  ((result as CallToolResult).content as { type: string; text: string }[]).map((c) => c.text).join('\n');
