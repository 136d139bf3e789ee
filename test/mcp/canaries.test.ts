import { describe, expect, it } from 'vitest';
import { journalCanaryRuns, registryWithCanary } from '../helpers/canary-journal.js';
import { mcpOnSim, structured, text } from './helpers.js';

describe('list_canaries', () => {
  it('shows each canary beside its stable version: ready by the rule once its shadow runs meet it', async () => {
    const { client, journal } = await mcpOnSim({ registry: registryWithCanary() });
    await journalCanaryRuns(journal, 20, true);
    const answer = await client.callTool({ name: 'list_canaries', arguments: {} });
    expect(text(answer).split('\n')[0]).toBe(
      'navigate@9.0.0 (stable 1.0.0): ready: 20 shadow runs on sim meet the rule',
    );
    expect(structured(answer)).toMatchObject({
      canaries: [{ verb: 'navigate', version: '9.0.0', state: 'ready', promoted: false }],
    });
  });
});
