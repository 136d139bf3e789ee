import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

/*
 * Issue 31 §3: on a server that does not say when it saved, the re-check after a restart covers a configurable window
 * (default: since the bot last connected). `worker`, `serve` and `mcp` all reconnect their bots and re-check them, so
 * all three take the window; before, only `worker` did, and `serve`/`mcp` refused the option as unknown.
 */

describe.each(['worker', 'serve', 'mcp'])('verbtree %s --recheck-window-ms', (command) => {
  it('is listed in its help', async () => {
    const { code, out } = await cli(command, '--help');
    expect(code).toBe(0);
    expect(out).toContain('--recheck-window-ms <ms>');
  });

  it('refuses a window that is not a whole number of ms from 1000, naming the flag', async () => {
    const { code, err } = await cli(command, '--recheck-window-ms', '10');
    expect(code).not.toBe(0);
    expect(err).toContain('--recheck-window-ms must be a whole number from 1000 to 86400000, got "10"');
  });
});
