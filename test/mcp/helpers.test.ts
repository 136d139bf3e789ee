import { beforeAll, describe, expect, it } from 'vitest';

/**
 * mcpOnSim's client, bots and journal are closed after the test that opened them, wherever the helper was first
 * loaded: imported here only once this file's tests are collected, as in a worker that shares its modules
 * (`isolate: false`) where another file loaded it first.
 */
describe('an MCP server on SimWorld from test/mcp/helpers.ts, the helper loaded after this file was collected', () => {
  let helpers: typeof import('./helpers.js');
  beforeAll(async () => {
    helpers = await import('./helpers.js');
  });

  let opened: Awaited<ReturnType<typeof helpers.mcpOnSim>> | undefined;
  it('answers during the test that opened it', async () => {
    opened = await helpers.mcpOnSim();
    expect((await opened.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('was closed, client and journal, when that test finished', async () => {
    await expect(opened!.client.listTools()).rejects.toThrow(/not connected/i);
    expect(opened!.journal.db.open).toBe(false);
  });
});
