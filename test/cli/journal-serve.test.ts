import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/journal/open.js';
import { cliProcess } from '../journal/cli-process.js';
import { stepsOf, tempJournalPath } from '../journal/helpers.js';

/**
 * `verbtree serve <args>` as a child process (the run's compiled CLI on plain node, not under tsx: some 2 s less CPU
 * per start): its stdout lines, its stderr so far, and its exit code.
 */
function serveChild(args: string[], env: Record<string, string>) {
  const child = cliProcess(['serve', '--port', '0', ...args], { ...process.env, ...env });
  const output = { err: '' };
  child.stderr!.on('data', (chunk) => (output.err += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return { child, output, exited, lines };
}

describe('verbtree serve', () => {
  it('serves on loopback with the token from VERBTREE_TOKEN and stops cleanly on SIGTERM', async () => {
    const { child, output, exited, lines } = serveChild(
      ['--journal', tempJournalPath(), '--scenario', 'examples/scenarios/forest.json'],
      { VERBTREE_TOKEN: 'from-env' },
    );
    const banner = String((await lines.next()).value);
    expect(banner, output.err).toMatch(
      /^verbtree API on http:\/\/127\.0\.0\.1:\d+ \(journal .+; SimWorld \(seed 1, scenario forest\); control enabled with a bearer token\)$/,
    );
    const url = /http:\/\/[\d.:]+/.exec(banner)![0];
    // The monitor's address, the token in the fragment.
    expect(String((await lines.next()).value)).toBe(`monitor: ${url}/monitor/#token=from-env`);
    const page = await fetch(`${url}/monitor/`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(await page.text()).toContain('<div id="app">');
    // A file outside the app (an encoded ../) is not served.
    expect((await fetch(`${url}/monitor/..%2F..%2Fpackage.json`)).status).toBe(404);

    const bot = await (await fetch(`${url}/api/bot/status`)).json();
    expect(bot).toMatchObject({ attached: true, kind: 'sim', position: { x: 0.5, y: 5, z: 0.5 } });
    const health = (await (await fetch(`${url}/api/health`)).json()) as { health: { status: string } };
    expect(health.health.status).toBe('healthy');
    const denied = await fetch(`${url}/api/cognitive/execute`, {
      method: 'POST',
      body: '{}',
      headers: { authorization: 'Bearer nope' },
    });
    expect(denied.status).toBe(401);
    const invalid = await fetch(`${url}/api/cognitive/execute`, {
      method: 'POST',
      body: '{}',
      headers: { authorization: 'Bearer from-env' },
    });
    expect(invalid.status).toBe(422);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(String((await lines.next()).value)).toBe('stopping on SIGTERM');
  }, 20_000);
  it('refuses to open the API to the network without a token, naming the fix (exit 2)', async () => {
    const { output, exited } = serveChild(['--host', '0.0.0.0', '--journal', tempJournalPath(), '--world', 'none'], {
      VERBTREE_TOKEN: '',
    });
    const code = await exited;
    expect(code).toBe(2);
    expect(output.err).toContain('--host 0.0.0.0 opens the API to the network');
    expect(output.err).toContain('--token');
    expect(output.err).not.toMatch(/\n\s+at /);
  }, 20_000);

  it('on SIGTERM, cancels the plan the API is running and journals its step as ended before exiting', async () => {
    const journal = tempJournalPath();
    const { child, output, exited, lines } = serveChild(['--journal', journal], { VERBTREE_TOKEN: 'stop-test' });
    const banner = String((await lines.next()).value);
    const url = /http:\/\/[\d.:]+/.exec(banner)?.[0];
    expect(url, output.err).toBeDefined();
    // A long walk: still under way when the server is told to stop.
    const plan = {
      planId: 'long-walk',
      intentId: 'i',
      steps: [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x: 200, y: 0, z: 0 } } }],
    };
    const accepted = await fetch(`${url}/api/cognitive/execute`, {
      method: 'POST',
      body: JSON.stringify(plan),
      headers: { authorization: 'Bearer stop-test' },
    });
    expect(accepted.status).toBe(202);
    const view = await openJournal(journal, { mustExist: true });
    const stepStatus = async () => (await stepsOf(view, 'long-walk'))[0]?.status;
    for (let i = 0; i < 200 && (await stepStatus()) !== 'in_progress'; i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await stepStatus()).toBe('in_progress');
    child.kill('SIGTERM');
    expect(await exited, output.err).toBe(0);
    expect(await stepStatus()).not.toBe('in_progress');
    const provenance = (await view.planProvenance('long-walk'))!;
    expect(provenance.plan.status).not.toBe('running');
    expect(provenance.runs.map((r) => r.code)).toEqual(['aborted']);
    await view.close();
  }, 30_000);

  it('--bots 3 drives three bots on one embedded server, each running its own plans; the API lists them and SIGTERM stops them all', async () => {
    const journal = tempJournalPath();
    const { child, output, exited, lines } = serveChild(['--journal', journal, '--world', 'embedded', '--bots', '3'], {
      VERBTREE_TOKEN: 'fleet',
    });
    const banner = String((await lines.next()).value);
    expect(banner, output.err).toMatch(
      /embedded flying-squid 1\.21\.4 on 127\.0\.0\.1:\d+, bot verbtree and 2 more bot\(s\) \(verbtree-2, verbtree-3\)/,
    );
    const url = /http:\/\/[\d.:]+/.exec(banner)![0];
    const listed = (await (await fetch(`${url}/api/bots`)).json()) as {
      bots: { bot: string; kind: string; connected: boolean; state: string }[];
    };
    expect(listed.bots.map((b) => [b.bot, b.kind, b.connected, b.state])).toEqual([
      ['verbtree', 'mineflayer', true, 'IDLE'],
      ['verbtree-2', 'mineflayer', true, 'IDLE'],
      ['verbtree-3', 'mineflayer', true, 'IDLE'],
    ]);
    // Two bots at once, each its own short walk, judged against the server's truth.
    const walk = (bot: string, x: number) =>
      fetch(`${url}/api/cognitive/execute?wait=true&bot=${bot}`, {
        method: 'POST',
        headers: { authorization: 'Bearer fleet' },
        body: JSON.stringify({
          planId: `walk-${bot}`,
          intentId: 'i',
          steps: [{ stepId: 'walk', type: 'navigate', args: { target: { kind: 'block', x, y: 5, z: 3 } } }],
        }),
      }).then((r) => r.json() as Promise<{ success: boolean; bot: string }>);
    const results = await Promise.all([walk('verbtree-2', 4), walk('verbtree-3', -4)]);
    expect(results.map((r) => [r.bot, r.success])).toEqual([
      ['verbtree-2', true],
      ['verbtree-3', true],
    ]);
    const status = (bot: string) =>
      fetch(`${url}/api/bot/status?bot=${bot}`).then(
        (r) => r.json() as Promise<{ position: { x: number; z: number } }>,
      );
    expect(Math.floor((await status('verbtree-2')).position.x)).toBe(4);
    expect(Math.floor((await status('verbtree-3')).position.x)).toBe(-4);
    expect(Math.floor((await status('verbtree')).position.x)).toBe(0);
    child.kill('SIGTERM');
    expect(await exited, output.err).toBe(0);
  }, 60_000);

  it('refuses a fleet size it cannot serve, naming the fix (exit 2)', async () => {
    for (const [args, message] of [
      [['--bots', '0'], '--bots must be a whole number from 1 to 100, got "0"'],
      [['--bots', '2', '--world', 'none'], '--bots needs a world'],
    ] as const) {
      const { output, exited } = serveChild([...args, '--journal', tempJournalPath()], {});
      expect(await exited).toBe(2);
      expect(output.err).toContain(message);
    }
  }, 20_000);
});
