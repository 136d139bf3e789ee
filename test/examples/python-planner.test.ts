import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serveProcess } from '../helpers/serve-process.js';
import { tempJournalPath } from '../journal/helpers.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/python-planner/', import.meta.url));
const TOKEN = 'python-secret';

/** `verbtree serve` on the example's embedded world, holding failures for its client. */
const serve = () =>
  serveProcess([
    '--world',
    'embedded',
    '--scenario',
    join(EXAMPLE, 'scenario.json'),
    '--escalate-to-client',
    '--journal',
    tempJournalPath(),
    '--token',
    TOKEN,
  ]);

/** Runs the example as its README says, with python3 and nothing else; its exit code and output. */
function planner(url: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn('python3', [join(EXAMPLE, 'planner.py'), '--url', url, '--token', TOKEN], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

describe('examples/python-planner', () => {
  it("submits a plan, follows its events, reads the held failure's code and evidence, and answers it until the plan ends verified", async () => {
    const server = await serve();
    try {
      const run = await planner(server.url);
      expect(run.err).toBe('');
      const lines = run.out.split('\n').map((line) => line.replace(/\s+/, ' '));
      expect(lines[0]).toBe('accepted python-planks on verbtree (202, 1 step(s))');
      expect(lines).toContain('event step.ended planks: precondition_missing');
      expect(lines).toContain('event plan.escalated');
      expect(lines.find((l) => l.startsWith('failure'))).toMatch(
        /^failure planks precondition_missing: missing 1 oak_log \(have 1, need 2\) to craft 8 oak_planks/,
      );
      expect(lines.find((l) => l.startsWith('evidence'))).toMatch(
        /step\.started planks, .*step\.ended planks: precondition_missing$/,
      );
      expect(lines).toContain('answered planks-from-one-log instead (escalation answered: True)');
      expect(lines).toContain('event step.ended planks-from-one-log: ok');
      expect(lines).toContain('ok python-planks succeeded: planks failed, planks-from-one-log succeeded');
      expect(run.code).toBe(0);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  }, 120_000);
});
