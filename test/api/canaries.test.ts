import { afterEach, describe, expect, it } from 'vitest';
import { CanariesReply } from '../../src/api/contract/schemas.js';
import { createApiServer } from '../../src/api/server.js';
import { journalCanaryRuns, registryWithCanary } from '../helpers/canary-journal.js';
import { openTemp } from '../journal/helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('GET /api/canaries', () => {
  it("answers each canary's standing and both SLAs, as the route table's schema says", async () => {
    const { path, journal } = openTemp();
    await journalCanaryRuns(journal, 20, false);
    const api = createApiServer({ journal, journalPath: path, registry: registryWithCanary(), token: 't' });
    closers.push(() => api.close());
    const { url } = await api.listen(0);
    const answer = await fetch(`${url}/api/canaries`, { headers: { authorization: 'Bearer t' } });
    expect(answer.status).toBe(200);
    const body = CanariesReply.parse(await answer.json());
    expect(body.canaries).toMatchObject([
      {
        verb: 'navigate',
        version: '9.0.0',
        stable: '1.0.0',
        state: 'shadow',
        reason: "on sim: success 0% is below the stable's 100%",
        sla: [{ worldKind: 'sim', stable: { runs: 20, successRate: 1 }, canary: { runs: 20, successRate: 0 } }],
      },
    ]);
  });
});
