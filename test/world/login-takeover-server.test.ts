import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { REPLACED_REASON } from '../../src/world/embedded/plugins/login-takeover.js';
import { botOf } from '../../src/world/mineflayer/index.js';
import { embeddedSuite } from '../helpers/embedded.js';
import { eventually } from '../helpers/eventually.js';

/**
 * A login under a name already online, with real clients on the embedded server: as vanilla, the new session gets in
 * and the old one is kicked ("You logged in from another location") and gone from the server's players, even when
 * the old client is frozen and answers nothing.
 */

const suite = embeddedSuite({});
const sessionsOf = (name: string) => suite.server.playerNames().filter((n) => n === name).length;

/** A plain client in a child process, its stdout line by line. */
function clientProcess(username: string) {
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'clients', 'frozen-client.mjs'), String(suite.server.port), username],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  const exited = once(child, 'exit');
  return { child, lines, exited };
}

describe('a second login of a name already online', () => {
  it("kicks the old session with vanilla's reason; the new one plays on, the only one of its name", async () => {
    const old = await suite.world.connectBot('ann');
    const kicked = once(botOf(old), 'kicked') as Promise<[unknown, boolean]>;
    const fresh = await suite.world.connectBot('ann');
    expect(await eventually(() => !old.isConnected())).toBe(true);
    const [reason] = await kicked;
    expect(JSON.stringify(reason)).toContain(REPLACED_REASON);
    expect(sessionsOf('ann')).toBe(1);
    expect(fresh.isConnected()).toBe(true);
    // The server answers the new session: its own position comes back from the server's truth.
    expect(suite.server.player('ann')).not.toBeNull();
    await fresh.close();
    expect(await eventually(() => sessionsOf('ann') === 0)).toBe(true);
  }, 60_000);

  it('takes over from a client frozen (SIGSTOP) at the moment of the new login: the old session is gone at once', async () => {
    const frozen = clientProcess('bo');
    try {
      expect(
        await eventually(() => frozen.lines.includes('in') && sessionsOf('bo') === 1, 20_000),
        frozen.lines.join('; '),
      ).toBe(true);
      frozen.child.kill('SIGSTOP');
      const fresh = await suite.world.connectBot('bo');
      expect(fresh.isConnected()).toBe(true);
      expect(sessionsOf('bo')).toBe(1);
      // Others stay: only the name's own session is replaced.
      const other = await suite.world.connectBot('cy');
      expect([sessionsOf('bo'), sessionsOf('cy')]).toEqual([1, 1]);
      frozen.child.kill('SIGCONT');
      await frozen.exited;
      expect(frozen.lines.at(-1)).toMatch(/^ended/);
      expect(sessionsOf('bo')).toBe(1);
      await Promise.all([fresh.close(), other.close()]);
    } finally {
      frozen.child.kill('SIGKILL');
    }
  }, 60_000);
});
