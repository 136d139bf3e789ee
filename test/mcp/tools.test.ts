import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { defineCapability } from '../../src/index.js';
import { loadProject } from '../../src/cli/project-config.js';
import { controlTools } from '../../src/mcp/control-tools.js';
import { exportJsonSchemas } from '../../src/registry/json-schema.js';
import { userProject } from '../helpers/user-project.js';
import { mcpOnSim, onClock, structured, text } from './helpers.js';

const walk = (x: number) => ({ target: { kind: 'block', x, y: 0, z: 0 } });

describe('the tools', () => {
  it("are the registry's verbs, the project's own included, each with the verb's JSON Schema plus bot, then the control tools", async () => {
    const { dir } = await userProject();
    const project = (await loadProject(dir))!;
    const { client } = await mcpOnSim({ registry: project.registry, extraTreePaths: [join(dir, 'trees')] });
    const { tools } = await client.listTools();
    const verbs = project.registry.verbs();
    expect(verbs).toContain('wave');
    expect(tools.map((t) => t.name)).toEqual([...verbs, ...controlTools().map((t) => t.name)]);
    const schemas = exportJsonSchemas(project.registry);
    for (const verb of verbs) {
      const tool = tools.find((t) => t.name === verb)!;
      const resolved = project.registry.resolve(verb);
      if (!resolved.ok) throw new Error(resolved.message);
      const newest = schemas.find((s) => s.name === verb && s.version === resolved.spec.version)!;
      const { bot, ...properties } = tool.inputSchema.properties as Record<string, unknown>;
      expect(bot).toMatchObject({ type: 'string' });
      expect({ ...tool.inputSchema, properties }).toEqual(newest.inputSchema);
      expect(tool.description).toContain(newest.description);
      expect(tool.annotations?.readOnlyHint).toBe(false);
    }
    const destructive = tools.filter((t) => t.annotations?.destructiveHint === true && verbs.includes(t.name));
    expect(destructive.map((t) => t.name)).toEqual(['attack_entity', 'collect_block', 'dig_block', 'guard_area']);
    expect(tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name)).toEqual([
      'get_run',
      'validate_plan',
      'observe',
      'list_bots',
      'list_canaries',
    ]);
  });
});

describe('a verb whose arguments take a bot of their own', () => {
  it('is called with { args, bot }: its arguments under args, anything else refused', async () => {
    const registry = createDefaultRegistry().register(
      defineCapability({
        name: 'greet',
        version: '1.0.0',
        description: 'Greet another bot (registered without a tree: not runnable in this build).',
        inputSchema: z.strictObject({ bot: z.string().min(1) }),
        safetyLevel: 'safe',
        expectedDurationMs: 1000,
        retryableCodes: [],
        preconds: [],
        effects: [],
        guard: () => ({ ok: true }),
        acceptance: () => ({ ok: true }),
      }),
    );
    const { client, clock } = await mcpOnSim({ registry });
    const tool = (await client.listTools()).tools.find((t) => t.name === 'greet')!;
    expect(tool.inputSchema).toMatchObject({
      required: ['args'],
      properties: { args: { properties: { bot: { type: 'string' } } }, bot: { type: 'string' } },
    });
    const stray = await onClock(
      clock,
      client.callTool({ name: 'greet', arguments: { args: { bot: 'bo' }, to: 'bo' } }),
    );
    expect(text(stray)).toContain('to: unknown field "to": the verb\'s arguments go under "args"');
    const ran = await onClock(clock, client.callTool({ name: 'greet', arguments: { args: { bot: 'bo' } } }));
    expect(structured(ran)).toMatchObject({ status: 'failed', code: 'not_runnable', stepId: 'greet' });
  });
});

describe('a verb tool', () => {
  it('runs one step and, ok, names the expectations verified in the world', async () => {
    const { client, clock, worlds } = await mcpOnSim();
    const result = await onClock(clock, client.callTool({ name: 'navigate', arguments: walk(6) }));
    expect(result.isError).toBeUndefined();
    expect(structured(result)).toMatchObject({
      status: 'succeeded',
      bot: 'ada',
      steps: [
        {
          stepId: 'navigate',
          verb: 'navigate',
          verified: ['the bot stands on (6, 0, 0)'],
          expects: [{ kind: 'position', goal: { kind: 'block', x: 6, y: 0, z: 0 } }],
        },
      ],
    });
    expect(structured(result).planId).toMatch(/^navigate-[0-9a-f]{8}$/);
    expect(text(result)).toContain('the bot stands on (6, 0, 0)');
    expect(worlds[0]!.position()).toMatchObject({ x: 6.5, z: 0.5 });
  });

  it('a hanging actuator (--fault navigate=hang) ends in a stuck.* error result carrying the failure and its evidence', async () => {
    const { client, clock, worlds } = await mcpOnSim({ faults: ['navigate=hang'] });
    const result = await onClock(clock, client.callTool({ name: 'navigate', arguments: walk(20) }));
    expect(result.isError).toBe(true);
    const failure = structured(result);
    expect(failure.code).toMatch(/^stuck\./);
    expect(failure).toMatchObject({
      status: 'failed',
      stepId: 'navigate',
      retryable: true,
      expects: [{ kind: 'position', goal: { kind: 'block', x: 20, y: 0, z: 0 } }],
    });
    expect(Object.keys(failure)).toEqual(
      expect.arrayContaining(['code', 'retryable', 'detail', 'unmet', 'expects', 'stepId', 'evidence']),
    );
    const evidence = failure.evidence as { type: string }[];
    expect(evidence.some((e) => e.type === 'step.stuck')).toBe(true);
    expect(evidence.at(-1)?.type).toBe('step.ended');
    // The same in text, for clients that show only text.
    expect(text(result)).toContain(JSON.stringify(failure));
    expect(worlds[0]!.liveActuators()).toBe(0);
  });

  it("bad arguments get verbtree's own message (path, code, did you mean) as a result the model reads", async () => {
    const { client, clock } = await mcpOnSim({ names: ['ada', 'bo'] });
    const bad = await onClock(
      clock,
      client.callTool({ name: 'collect_block', arguments: { blok: 'oak_log', count: 0 } }),
    );
    expect(bad.isError).toBe(true);
    expect(structured(bad)).toMatchObject({
      error: 'rejected',
      issues: [
        { where: 'block', code: 'schema_violation' },
        { where: 'count', code: 'schema_violation', message: 'is too small: must be >= 1' },
        { where: '(arguments)', code: 'schema_violation', suggestion: 'block' },
      ],
    });
    expect(text(bad)).toContain('unknown field "blok": remove it; did you mean "block"?');
    const nobody = await onClock(clock, client.callTool({ name: 'navigate', arguments: { ...walk(1), bot: 'cy' } }));
    expect(structured(nobody)).toMatchObject({
      error: 'not_found',
      message: 'no bot "cy" here; the bots are ada, bo',
      bots: ['ada', 'bo'],
      see: 'the list_bots tool names the bots',
    });
    const wait = await onClock(clock, client.callTool({ name: 'get_run', arguments: { planId: 'p', waitMs: 'soon' } }));
    expect(wait.isError).toBe(true);
    expect(text(wait)).toContain('waitMs: expected number, got string "soon"');
    const typo = await client.callTool({ name: 'run_plna', arguments: {} });
    expect(typo.isError).toBe(true);
    expect(text(typo)).toContain('did you mean "run_plan"?');
  });
});
