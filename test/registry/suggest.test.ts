import { describe, expect, it } from 'vitest';
import { closestMatch } from '../../src/index.js';

const verbs = ['navigate', 'dig_block', 'place_block', 'craft_item', 'consume_food'];

describe('closestMatch', () => {
  it.each([
    ['dig', 'dig_block'],
    ['digblock', 'dig_block'],
    ['Navigate', 'navigate'],
    ['craft', 'craft_item'],
    ['place_blocks', 'place_block'],
  ])('suggests %s -> %s', (typo, expected) => expect(closestMatch(typo, verbs)).toBe(expected));

  it('suggests nothing for an unrelated word', () => expect(closestMatch('teleport_home', verbs)).toBeUndefined());
});
