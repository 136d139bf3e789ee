import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import { startEmbeddedServer } from '../../src/world/embedded/embedded-server.js';
import { readSavedAt, readWorldMarker } from '../../src/world/embedded/world-folder.js';
import { cli } from '../helpers/cli.js';
import { cliProcess, finished, untilEvent } from '../journal/cli-process.js';
import { tempJournalPath } from '../journal/helpers.js';

const plan = {
  planId: 'kept',
  intentId: 'i',
  steps: [
    { stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } },
    { stepId: 'dig', type: 'dig_block', args: { position: { x: 2, y: 5, z: 0 }, block: 'dirt' } },
    { stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 5, y: 5, z: 2 } } },
  ],
};
const scenario = {
  name: 'kept',
  spawn: { x: 0, y: 5, z: 0 },
  bot: { inventory: { oak_log: 1 } },
  blocks: [{ x: 2, y: 5, z: 0, block: 'dirt' }],
};

/** Polls a condition another process makes true (the embedded server saves its world every second). */
async function eventually(holds: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  for (const start = Date.now(); !holds();) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('run --resume on the embedded world', () => {
  it('continues in the world kept on disk after a SIGKILL: the dug block stays dug, the crafted planks stay in the pack, and the scenario is not laid out again', async () => {
    const journalPath = tempJournalPath();
    const planFile = join(dirname(journalPath), 'kept.plan.json');
    const scenarioFile = join(dirname(journalPath), 'kept.scenario.json');
    writeFileSync(planFile, JSON.stringify(plan));
    writeFileSync(scenarioFile, JSON.stringify(scenario));
    const folder = join(dirname(journalPath), 'worlds', 'kept');

    // 1. The run crafts and digs, then hangs walking; it is killed once the world folder holds the dig.
    const runner = cliProcess([
      'run',
      planFile,
      '--scenario',
      scenarioFile,
      '--journal',
      journalPath,
      '--json',
      '--fault',
      'navigate=hang',
    ]);
    const ended = finished(runner);
    await untilEvent(runner, (e) => e.type === 'attempt.started' && e.stepId === 'walk');
    const journal = await openJournal(journalPath, { mustExist: true });
    const dig = (await journal.planProvenance('kept'))!.steps.find((s) => s.step.step_id === 'dig')!;
    const dugAt = Math.max(...dig.transitions.filter((t) => t.to_status === 'succeeded').map((t) => t.at));
    await eventually(() => (readSavedAt(folder) ?? 0) > dugAt, 'the world folder was saved after the dig');
    runner.kill('SIGKILL');
    expect((await ended).signal).toBe('SIGKILL');
    const world = JSON.parse((await journal.plan('kept'))!.world!) as unknown;
    expect(world).toMatchObject({
      world: 'embedded',
      worldFolder: folder,
      worldId: readWorldMarker(folder)!.worldId,
      managed: true,
    });
    await journal.close();

    // 2. The resume reopens that world: dig is done there, walk runs.
    const resumed = await cli('run', '--resume', 'kept', '--journal', journalPath);
    expect(resumed.code, resumed.out + resumed.err).toBe(0);
    expect(resumed.out).toContain('resuming plan kept: done planks, dig; skipped –; to run walk');
    expect(resumed.out).toContain(`world reopened in ${folder}`);
    const after = await openJournal(journalPath, { mustExist: true });
    try {
      const steps = (await after.planProvenance('kept'))!.steps;
      expect(steps.filter((s) => ['planks', 'dig'].includes(s.step.step_id)).flatMap((s) => s.attempts)).toHaveLength(
        2,
      );
      // The bot as the server holds it at the end: the planks crafted before the kill, not the scenario's log again.
      // The dug dirt's drop is in the pack only when the bot walked over it before the kill's last save (else it
      // lies where it fell, kept with the world), so it may or may not be there: never twice.
      const walk = steps.find((s) => s.step.step_id === 'walk')!;
      const last = JSON.parse(walk.effects[0]!.post) as { inventory: Record<string, number> };
      const { dirt = 0, ...rest } = last.inventory;
      expect(rest).toEqual({ oak_planks: 4 });
      expect(dirt).toBeLessThanOrEqual(1);
    } finally {
      await after.close();
    }

    // 3. The server's own truth, read from the folder: the block stays dug.
    const server = await startEmbeddedServer({ storage: { folder, fresh: false } });
    try {
      expect(await server.blockAt({ x: 2, y: 5, z: 0 })).toBe('air');
    } finally {
      await server.stop();
    }
  }, 120_000);
});
