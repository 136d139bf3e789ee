import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { usePostgres } from './use-postgres.js';

describe("usePostgres's cluster", () => {
  const cluster = usePostgres();
  // While the file is collected, before the beforeAll has run: a TypeError on undefined would not say why.
  const early = (() => {
    try {
      return cluster.port;
    } catch (error) {
      return error;
    }
  })();

  it('refuses to be used before its beforeAll started it, saying so', () => {
    expect(early).toBeInstanceOf(Error);
    expect((early as Error).message).toMatch(/^usePostgres\(\): the cluster is started by its beforeAll hook/);
  });

  it('is the started cluster in a test: its port, urls and databases', async () => {
    expect(cluster.url('x')).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/x`);
    const client = new pg.Client({ connectionString: await cluster.database() });
    await client.connect();
    try {
      const { rows } = await client.query<{ port: string }>('SHOW port');
      expect(rows).toEqual([{ port: String(cluster.port) }]);
    } finally {
      await client.end();
    }
  });
});
