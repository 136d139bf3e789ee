import { type Expectation, type Observation, REPLACEABLE_BLOCKS } from 'verbtree';
import { bottomOf, coverOf, holeCells } from './cells.js';

const AIR = ['air', 'cave_air', 'void_air'];

/** The bot stands at the hole's bottom, the cell over its feet is open for its head, and the top is closed. */
export function digInExpects(pre: Observation): Expectation[] {
  const { x, y, z } = pre.position;
  const hole = holeCells({ x: Math.floor(x), y: Math.floor(y), z: Math.floor(z) });
  const bottom = bottomOf(hole);
  return [
    { kind: 'position', goal: { kind: 'block', ...bottom } },
    { kind: 'block', at: { ...bottom, y: bottom.y + 1 }, oneOf: AIR },
    { kind: 'block', at: coverOf(hole), noneOf: [...REPLACEABLE_BLOCKS] },
  ];
}
