import { describe, expect, expectTypeOf, it } from 'vitest';
import * as verbtree from '../src/index.js';
import * as worlds from '../src/worlds.js';

describe("the package's public entry", () => {
  it('exports every name a user must write to handle its errors and configure it', () => {
    for (const name of [
      'TreeLoadError',
      'WATCHDOG_KINDS',
      'builtinTreePaths',
      'StuckDetectorSet',
      'PositionDetector',
      'ProgressDetector',
      'assembleExecutor',
      'defineCapability',
    ]) {
      expect(verbtree, `verbtree: ${name}`).toHaveProperty(name);
    }
    for (const name of ['FaultSpecError', 'parseFaultSpec', 'parseFaultSpecs', 'SimWorld', 'MineflayerWorld'])
      expect(worlds, `verbtree/worlds: ${name}`).toHaveProperty(name);
    expect(() => worlds.parseFaultSpec('navigate=explode')).toThrow(worlds.FaultSpecError);
  });

  it("types the agent's state as the union of its states, not a string", () => {
    expectTypeOf<ReturnType<verbtree.Executor['state']>>().toEqualTypeOf<verbtree.AgentState>();
    expectTypeOf<verbtree.AgentState>().toEqualTypeOf<
      'IDLE' | 'PLANNING' | 'EXECUTING' | 'RECOVERING' | 'PAUSED' | 'COMPLETED' | 'FAILED'
    >();
    expect(verbtree.AGENT_STATES).toContain('PAUSED');
  });
});
