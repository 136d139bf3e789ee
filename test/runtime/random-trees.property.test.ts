import fc from 'fast-check';
import { expect, test } from 'vitest';
import { isFailureCode } from '../../src/contracts/failure-codes.js';
import { WorldError } from '../../src/contracts/world.js';
import type { RunContext } from '../../src/registry/capability-spec.js';
import type { NodeStatesEvent, TreeOutcome } from '../../src/runtime/index.js';
import { FakeActuator, harness, unusedWorld } from './harness.js';

type Behaviour =
  | { kind: 'resolve'; ok: boolean; ms: number; actuate: boolean }
  | { kind: 'reject'; ms: number; actuate: boolean }
  | { kind: 'hang'; actuate: boolean }
  | { kind: 'throw' }
  | { kind: 'sync'; ok: boolean };

const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  fc.record({
    kind: fc.constant('resolve' as const),
    ok: fc.boolean(),
    ms: fc.integer({ min: 0, max: 1500 }),
    actuate: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('reject' as const), ms: fc.integer({ min: 0, max: 1500 }), actuate: fc.boolean() }),
  fc.record({ kind: fc.constant('hang' as const), actuate: fc.boolean() }),
  fc.record({ kind: fc.constant('throw' as const) }),
  fc.record({ kind: fc.constant('sync' as const), ok: fc.boolean() }),
);

const LEAVES = 6;
const MAX_OCCURRENCES = 64;

/** Gives every leaf occurrence its own binding name, so a node path names exactly one leaf. */
function numberLeaves(text: string): string {
  let next = 0;
  return text.replace(/action \[leaf, /g, () => `action [leaf_${next++}, `);
}

/** Random MDSL over leaves `action [leaf, i]`, with composites, retries and watchdogs. */
const treeText: fc.Arbitrary<string> = fc
  .letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.integer({ min: 0, max: LEAVES - 1 }).map((i) => `action [leaf, ${i}]`),
      fc
        .tuple(
          fc.constantFrom('sequence', 'selector', 'parallel', 'race'),
          fc.option(
            fc.tuple(fc.constantFrom('ttfa', 'maxStateDuration', 'noActuator'), fc.integer({ min: 200, max: 3000 })),
          ),
          fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
        )
        .map(
          ([type, watchdog, children]) =>
            `${type}${watchdog ? ` while(watchdog, "${watchdog[0]}", ${watchdog[1]})` : ''} { ${children.join(' ')} }`,
        ),
      fc
        .tuple(fc.integer({ min: 1, max: 3 }), tie('node'))
        .map(([attempts, child]) => `retry [${attempts}] { ${child} }`),
      tie('node').map((child) => `flip { ${child} }`),
    ),
  }))
  .node.map((node) => `root { ${node} }`);

type Invocations = Map<string, { aborted: () => boolean; result?: boolean }[]>;

function leafBinding(script: Behaviour[][], actuator: FakeActuator, log: Invocations, key: string) {
  return (ctx: RunContext, leaf: unknown) => {
    const invocations = log.get(key) ?? [];
    log.set(key, invocations);
    const plan = script[Number(leaf)]!;
    const step = plan[invocations.length % plan.length]!;
    const record: { aborted: () => boolean; result?: boolean } = { aborted: () => ctx.signal.aborted };
    invocations.push(record);
    if (step.kind === 'throw') {
      record.result = false;
      throw new WorldError('no_path', 'thrown');
    }
    if (step.kind === 'sync') return (record.result = step.ok);
    const work = async (): Promise<boolean> => {
      if (step.kind === 'hang') {
        if (step.actuate) await actuator.command(ctx, 'hang');
        return new Promise<boolean>(() => undefined);
      }
      if (step.actuate) await actuator.command(ctx, step.ms);
      else await new Promise<void>((resolve) => ctx.clock.setTimeout(resolve, step.ms));
      if (step.kind === 'reject') throw new WorldError('stuck.path', 'rejected');
      return step.ok;
    };
    return work().then(
      (ok) => (record.result = ok),
      (error: unknown) => {
        record.result = false;
        throw error;
      },
    );
  };
}

test('every random tree run ends in success or a structured failure, with no live actuator and no misattributed result', async () => {
  await fc.assert(
    fc.asyncProperty(
      treeText.map(numberLeaves),
      fc.array(fc.array(behaviour, { minLength: 1, maxLength: 3 }), { minLength: LEAVES, maxLength: LEAVES }),
      async (text, script) => {
        fc.pre(!text.includes(`leaf_${MAX_OCCURRENCES}`));
        const log: Invocations = new Map();
        let actuator!: FakeActuator;
        const h = harness({ t: text }, (bindings, clock) => {
          actuator = new FakeActuator(clock);
          for (let k = 0; k < MAX_OCCURRENCES; k++) {
            bindings.registerAction(`leaf_${k}`, (ctx, leaf) =>
              leafBinding(script, actuator, log, `${(ctx.args as { tag: string }).tag}/leaf_${k}`)(ctx, leaf),
            );
          }
        });
        const violations: string[] = [];
        // Two runs of the same tree share the runner, the leaves and the actuator.
        const runs = ['a', 'b'].map((tag) => {
          const starts = new Map<string, number>();
          const checkStep = ({ changes }: NodeStatesEvent): void => {
            for (const change of changes) {
              const leaf = /action\((leaf_\d+)\)$/.exec(change.nodePath)?.[1];
              if (!leaf) continue;
              const key = `${tag}/${leaf}`;
              if (change.from === 'ready') starts.set(key, (starts.get(key) ?? 0) + 1);
              if (change.to !== 'succeeded' && change.to !== 'failed') continue;
              // A completing leaf's result must be its latest start's own invocation, and that invocation not aborted.
              const current = log.get(key)?.[(starts.get(key) ?? 0) - 1];
              if (!current || current.aborted() || current.result !== (change.to === 'succeeded'))
                violations.push(`${key}: -> ${change.to} not from its current invocation`);
            }
            // Every start of a node is a fresh invocation of its own run's leaf.
            for (const [key, count] of starts) {
              const invoked = log.get(key)?.length ?? 0;
              if (invoked !== count) violations.push(`${key}: ${count} starts but ${invoked} invocations`);
            }
          };
          return h.runner.run(
            't',
            { args: { tag }, world: unusedWorld },
            {
              watchdogDefaults: { ttfaMs: 800, noActuatorMs: 1200, maxStateDurationMs: 4000 },
              hooks: { nodeStates: checkStep },
            },
          );
        });
        const outcomes: TreeOutcome[] = [];
        void Promise.all(runs).then((all) => outcomes.push(...all));
        await h.clock.advanceUntil(() => outcomes.length === 2, 60_000, 250);
        expect(outcomes).toHaveLength(2);
        for (const outcome of outcomes) {
          if (!outcome.ok) {
            expect(isFailureCode(outcome.code)).toBe(true);
            expect(outcome.detail.length).toBeGreaterThan(0);
          }
        }
        expect(actuator.live).toBe(0);
        expect(violations).toEqual([]);
        expect(h.runner.activeRuns()).toBe(0);
      },
    ),
    { numRuns: 60, seed: 20261122 },
  );
});
