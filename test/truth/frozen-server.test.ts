import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../../capabilities/index.js';
import { SystemClock } from '../../src/clock/index.js';
import { assembleExecutor } from '../../src/executor/assemble.js';
import { startEmbeddedWorld, type ChildEmbeddedServer } from '../../src/world/embedded/index.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import { match } from '../helpers/matchers.js';

describe('a server that freezes mid-step', () => {
  it('ends the step naming what happened (the world stopped answering), not as missing effects', async () => {
    const world = await startEmbeddedWorld({
      isolation: 'child-process',
      scenario: parseScenario({ name: 'frozen', bot: { inventory: { dirt: 4 } } }),
    });
    const server = world.server as ChildEmbeddedServer;
    let frozen = false;
    try {
      const bot = await world.connectBot('frozen');
      const { executor, runner } = await assembleExecutor({
        registry: createDefaultRegistry(),
        world: bot,
        clock: new SystemClock(),
      });
      executor.events.on('event', (event) => {
        if (event.type === 'step.firstAction' && !frozen) {
          frozen = true;
          process.kill(server.pid, 'SIGSTOP');
        }
      });
      const result = await executor.run({
        planId: 'frozen',
        intentId: 'i',
        steps: [{ stepId: 'put', type: 'place_block', args: { position: { x: 2, y: 5, z: 0 }, item: 'dirt' } }],
      }).result;
      await runner.shutdown();
      expect(frozen).toBe(true);
      expect(result.ok).toBe(false);
      const step = result.steps.find((s) => s.step.stepId === 'put')!;
      expect(step.outcome).toMatchObject({
        ok: false,
        code: match.stringMatching(/^(world_unresponsive|world_disconnected)$/),
      });
    } finally {
      if (frozen) process.kill(server.pid, 'SIGCONT');
      await world.stop();
    }
  }, 90_000);
});
