import { type Expectation, type Observation, REPLACEABLE_BLOCKS } from 'verbtree';
import { feetCell, wallCells } from './cells.js';

/** The bot still stands in its cell, and every wall cell around its feet and head holds a block, none left open. */
export function wallInExpects(pre: Observation): Expectation[] {
  const feet = feetCell(pre.position);
  const open = [...REPLACEABLE_BLOCKS];
  return [
    { kind: 'position', goal: { kind: 'block', ...feet } },
    ...wallCells(feet).map((at): Expectation => ({ kind: 'block', at, noneOf: open })),
  ];
}
