import { describe, expect, it } from 'vitest';
import { embeddedSuite } from '../../test/helpers/embedded.js';

const suite = embeddedSuite({ bot: { food: 10, inventory: { bread: 2 } } });

const eat = (args: Record<string, unknown> = {}) => ({ stepId: 'eat', type: 'consume_food', args });

describe('consume_food on the embedded server', () => {
  it('eats bread: food rises by 5 and one bread is gone, on the server', async () => {
    const { result } = await suite.run('hungry', [eat()]);
    expect(result.steps[0]!.outcome).toEqual({ ok: true });
    expect(suite.server.player('hungry')).toMatchObject({ food: 15, inventory: { bread: 1 } });
  });

  it('fails with precondition_missing for a food the bot does not carry; nothing eaten', async () => {
    const { result } = await suite.run('picky', [eat({ item: 'cooked_beef' })]);
    expect(result.steps[0]!.outcome).toMatchObject({ ok: false, code: 'precondition_missing' });
    expect(suite.server.player('picky')).toMatchObject({ food: 10, inventory: { bread: 2 } });
  });
});
