import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';

describe('verbtree worker: its options', () => {
  it('--help says what a worker does, with its options and examples', async () => {
    const { code, out } = await cli('worker', '--help');
    expect(code).toBe(0);
    for (const flag of [
      '--journal',
      '--host',
      '--port',
      '--bot',
      '--capacity',
      '--node-id',
      '--version',
      '--auth',
      '--lease-ms',
      '--max-loop-delay-ms',
      '--max-cpu',
      '--claims-per-pass',
    ])
      expect(out).toContain(flag);
    expect(out).toContain('fences itself');
    expect(out).toMatch(/\$ verbtree worker --journal postgres:\/\//);
  });

  it.each([
    [['--host', 'h', '--bot', 'ann'], 'worker needs --journal postgres://'],
    [['--journal', 'j.db', '--host', 'h', '--bot', 'ann'], '--journal must be a postgres:// URL for a worker'],
    [['--journal', 'postgres://db/v', '--bot', 'ann'], 'worker needs --host'],
    [['--journal', 'postgres://db/v', '--host', 'h'], 'worker needs bots to hold: give --bot'],
    [['--journal', 'postgres://db/v', '--host', 'h', '--bot', 'no spaces'], '--bot must be a Minecraft name'],
    [
      ['--journal', 'postgres://db/v', '--host', 'h', '--bot', 'a', '--bot', 'b', '--capacity', '1'],
      '--capacity 1 is fewer than the 2 bots',
    ],
    [['--journal', 'postgres://db/v', '--host', 'h', '--capacity', '0'], '--capacity must be a whole number from 1'],
    [
      ['--journal', 'postgres://db/v', '--host', 'h', '--bot', 'a', '--claims-per-pass', '0'],
      '--claims-per-pass must be a whole number from 1',
    ],
    [
      ['--journal', 'postgres://db/v', '--host', 'h', '--bot', 'a', '--auth', 'mojang'],
      '--auth must be offline or microsoft',
    ],
    [
      ['--journal', 'postgres://db/v', '--host', 'h', '--bot', 'a', '--lease-ms', '10'],
      '--lease-ms must be a whole number from 500',
    ],
    [
      ['--journal', 'postgres://db/v', '--host', 'h', '--bot', 'a', '--port', '70000'],
      '--port must be a whole number from 1 to 65535',
    ],
    [
      ['--journal', 'postgres://db/v', '--host', 'h', '--bot', 'a', '--max-cpu', '-1'],
      '--max-cpu: Too small: expected number to be >=0',
    ],
    [
      ['--journal', 'postgres://db/v', '--host', 'h', '--bot', 'a', '--max-loop-delay-ms', 'soon'],
      '--max-loop-delay-ms must be a number, got "soon"',
    ],
  ])('refuses %j naming the option (exit 2, no stack)', async (args, said) => {
    const { code, err } = await cli('worker', ...args);
    expect(code).toBe(2);
    expect(err).toContain(said);
    expect(err).not.toMatch(/\n\s+at /);
  });
});
