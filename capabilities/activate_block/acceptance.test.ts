import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeStep, observation } from '../../src/testing/index.js';
import activateBlock from './index.js';

const at = { x: 1, y: 0, z: 1 };
const door = (open: boolean) => ({ name: 'oak_door', properties: { open } });

describe('activate_block acceptance', () => {
  it('ok exactly when the block is in the state aimed at from the world at dispatch; a state not observed never passes', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.constantFrom(undefined, 'open', 'closed'),
        fc.boolean(),
        fc.constantFrom('oak_door', 'spruce_door', 'stone'),
        (before, state, after, nameAfter) => {
          const args = activateBlock.inputSchema.parse({ ...at, ...(state ? { state } : {}) });
          const pre = observation({ states: { '1,0,1': door(before) } });
          const post = observation({
            states: { '1,0,1': { name: nameAfter, properties: nameAfter === 'stone' ? {} : { open: after } } },
          });
          const aimed = state === undefined ? !before : state === 'open';
          expect(judgeStep(activateBlock, pre, post, args).ok).toBe(nameAfter === 'oak_door' && after === aimed);
          expect(judgeStep(activateBlock, pre, observation({}), activateBlock.inputSchema.parse({ ...at })).ok).toBe(
            false,
          );
        },
      ),
    );
  });
});
