import { describe, expect, it } from 'vitest';
import { WORLDS } from '../../src/cli/worlds.js';
import { cli } from '../helpers/cli.js';
import { cliIn, userProject } from '../helpers/user-project.js';

const PLAN = 'examples/walk.plan.json';
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the table of worlds (src/cli/worlds.ts) on the command line', () => {
  it.each(['run', 'serve', 'mcp'])('%s --help gives every kind of the table a line of its own', async (command) => {
    const { code, out } = await cli(command, '--help');
    expect(code).toBe(0);
    for (const row of WORLDS) expect(out).toMatch(new RegExp(`^  ${row.kind} +${literally(row.summary)}$`, 'm'));
  });

  it('a --world no row names is refused, listing the kinds (exit 2)', async () => {
    const run = await cli('run', PLAN, '--world', 'mars');
    expect(run.code).toBe(2);
    expect(run.err).toContain("argument 'mars' is invalid. Allowed choices are embedded, sim, remote.");
    const serve = await cli('serve', '--world', 'mars');
    expect(serve.code).toBe(2);
    expect(serve.err).toContain('Allowed choices are embedded, sim, remote, none.');
  });

  it('an option the chosen world does not read is refused, naming the worlds that read it (exit 2)', async () => {
    for (const [args, message] of [
      [['run', PLAN, '--world', 'sim', '--host', 'mc.example.org'], '--host applies to the remote world only'],
      [['run', PLAN, '--world', 'sim', '--isolate'], '--isolate applies to the embedded world only'],
      [['run', PLAN, '--world', 'sim', '--world-folder', 'w'], '--world-folder applies to the embedded world only'],
      [['run', PLAN, '--version', '1.20.4'], '--version applies to the remote world only'],
      [
        ['serve', '--world', 'sim', '--server-host', 'mc.example.org'],
        '--server-host applies to the remote world only',
      ],
      [
        ['serve', '--server-host', 'mc.example.org', '--scenario', 'examples/scenarios/forest.json'],
        '--scenario applies to the embedded and sim worlds only; a remote server keeps its own world',
      ],
      [['mcp', '--world', 'sim', '--host', 'mc.example.org'], '--host applies to the remote world only'],
      [['mcp', '--version', '1.20.4'], '--version applies to the remote world only'],
    ] as const) {
      const { code, err } = await cli(...args);
      expect(err).toContain(message);
      expect(code).toBe(2);
    }
  });

  it('--world remote without its server names the option it needs, as each command spells it (exit 2)', async () => {
    const run = await cli('run', PLAN, '--world', 'remote');
    expect(run.err).toContain('--world remote needs --host (and usually --port, --username, --version)');
    expect(run.code).toBe(2);
    const serve = await cli('serve', '--world', 'remote');
    expect(serve.err).toContain('--world remote needs --server-host (and usually --server-port, --version)');
    expect(serve.code).toBe(2);
    const mcp = await cli('mcp', '--world', 'remote');
    expect(mcp.err).toContain('--world remote needs --host (and usually --port, --username, --version)');
    expect(mcp.code).toBe(2);
  });

  it("a project's remote world is serve's server, under serve's own flags (its --host is the API's)", async () => {
    const { sub } = await userProject({
      'verbtree.config.mjs': "export default { world: { kind: 'remote', host: 'mc.example.org', port: 25570 } };",
    });
    const { code, out } = await cliIn(sub, 'serve', '--help');
    expect(code).toBe(0);
    const help = out.replace(/\s+/g, ' ');
    expect(help).toContain('default: "remote" from verbtree.config.mjs)');
    expect(help).toContain(
      '--server-host <host> the Minecraft server to connect to (implies --world remote) (default: "mc.example.org" from verbtree.config.mjs)',
    );
    expect(help).toContain(
      "--server-port <port> the Minecraft server's port (default: 25570 from verbtree.config.mjs)",
    );
    expect(help).toContain(
      '--host <address> address to bind; the default keeps the API on this machine (default: "127.0.0.1")',
    );
  });
});
