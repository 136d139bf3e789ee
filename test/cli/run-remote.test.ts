import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer, type EmbeddedServer } from '../../src/world/embedded/index.js';
import { parseScenario } from '../../src/world/scenario/index.js';
import { cli } from '../helpers/cli.js';

/** A server the CLI did not start: reached only through --host and --port, as any remote server would be. */
let server: EmbeddedServer;
beforeAll(async () => {
  server = await startEmbeddedServer({
    scenario: parseScenario({ name: 'remote', bot: { inventory: { stone_axe: 1 } } }),
  });
});
afterAll(async () => {
  await server.stop();
});

describe('verbtree run --host', () => {
  it('runs a plan against a server named by --host/--port, verified on that server', async () => {
    const { code, out } = await cli(
      'run',
      'test/fixtures/equip.plan.json',
      '--host',
      server.host,
      '--port',
      String(server.port),
      '--username',
      'visitor',
      '--version',
      '1.21.4',
    );
    expect(out).toContain(`world: server ${server.host}:${server.port} (Minecraft 1.21.4), bot visitor`);
    expect(code).toBe(0);
  });

  it('refuses --scenario with a remote server, which keeps its own world', async () => {
    const { code, err } = await cli(
      'run',
      'test/fixtures/equip.plan.json',
      '--host',
      server.host,
      '--port',
      String(server.port),
      '--scenario',
      'test/fixtures/axe.scenario.json',
    );
    expect(code).toBe(2);
    expect(err).toContain('--scenario applies to the embedded and sim worlds only');
  });

  it('fails clearly when nothing listens there', async () => {
    const { code, err } = await cli('run', 'test/fixtures/equip.plan.json', '--host', '127.0.0.1', '--port', '1');
    expect(code).not.toBe(0);
    expect(err).toMatch(/world_disconnected|connect|ECONNREFUSED/);
  });
});
