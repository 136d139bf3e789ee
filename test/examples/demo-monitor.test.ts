import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { tempJournalPath } from '../journal/helpers.js';

const root = join(import.meta.dirname, '..', '..');

/*
 * `npm run demo:monitor` as a new user runs it: the tech-tree demo on the embedded server, watched. The monitor is
 * up (and names the bot) before the goal is reached, the run is journaled node by node for its replay, and the
 * monitor stays up for that replay until Ctrl-C, which ends the demo cleanly.
 */
describe('the monitor demo', () => {
  it('serves the monitor while the bot reaches its goal, then stays up to replay the journaled run until Ctrl-C', async () => {
    const journal = tempJournalPath();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'examples', 'goal-planner', 'demo.ts'), '--monitor', '0', '--journal', journal],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const until = async (pattern: RegExp): Promise<string[]> => {
      const seen: string[] = [];
      for (;;) {
        const next = await lines.next();
        if (next.done) throw new Error(`the demo ended before printing ${pattern}:\n${seen.join('\n')}\n${err}`);
        seen.push(String(next.value));
        if (pattern.test(String(next.value))) return seen;
      }
    };
    try {
      const monitorLine = (await until(/^monitor: /)).at(-1)!;
      const url = /http:\/\/[\d.:]+/.exec(monitorLine)![0];
      expect(monitorLine).toMatch(/\/monitor\/#token=[0-9a-f]+/);
      const bots = (await (await fetch(`${url}/api/bots`)).json()) as {
        bots: { bot: string; kind: string; viewer: string | null }[];
      };
      expect(bots.bots.map((b) => [b.bot, b.kind])).toEqual([['techtree', 'mineflayer']]);
      expect(bots.bots[0]!.viewer).toBe('/viewer/techtree/');

      const output = await until(/^replay it: /);
      expect(output.join('\n')).toMatch(/✓ stone_pickaxe in the inventory the server holds \(1\)/);
      const replay = output.at(-1)!;
      const planId = decodeURIComponent(/&replay=([^\s]+)/.exec(replay)![1]!);
      // The replay's data, from the monitor that stayed up: every node change of the run, and its events.
      const nodes = (await (await fetch(`${url}/api/runs/${encodeURIComponent(planId)}/nodes?limit=1000`)).json()) as {
        nodeStates: { tree: string }[];
      };
      const trees = new Set(nodes.nodeStates.map((row) => row.tree));
      expect(trees.has('collect_block') && trees.has('craft_item')).toBe(true);
      expect((await fetch(`${url}/monitor/`)).status).toBe(200);
      child.kill('SIGINT');
      expect(await exited, err).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 180_000);
});
