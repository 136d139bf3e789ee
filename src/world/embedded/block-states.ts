import type { BlockState } from '../../contracts/world.js';
import { blockState, toggledProperty } from '../activation.js';

/*
 * Block state ids as minecraft-data lays them out: a block's states count up
 * from its minStateId, the last property varying fastest; a boolean's first
 * value is true.
 */

interface StateProperty {
  name: string;
  type: string;
  num_values: number;
}
interface BlockEntry {
  name: string;
  minStateId?: number;
  states?: StateProperty[];
}
interface Registry {
  blocksByStateId: { [id: number]: BlockEntry };
}

function decode(block: BlockEntry, stateId: number): number[] {
  const states = block.states ?? [];
  const indices = new Array<number>(states.length).fill(0);
  let data = stateId - (block.minStateId ?? stateId);
  for (let i = states.length - 1; i >= 0; i--) {
    indices[i] = data % states[i]!.num_values;
    data = Math.floor(data / states[i]!.num_values);
  }
  return indices;
}

function encode(block: BlockEntry, indices: readonly number[]): number {
  const states = block.states ?? [];
  let data = 0;
  for (let i = 0; i < states.length; i++) data = data * states[i]!.num_values + indices[i]!;
  return (block.minStateId ?? 0) + data;
}

/** The block at a state id with the property using it changes, as verbtree's worlds report it. */
export function blockStateOf(registry: Registry, stateId: number): BlockState {
  const block = registry.blocksByStateId[stateId];
  if (!block) return blockState('unknown');
  const key = toggledProperty(block.name);
  const index = (block.states ?? []).findIndex((state) => state.name === key);
  return blockState(block.name, key && index >= 0 ? { [key]: decode(block, stateId)[index] === 0 } : {});
}

/** The state id with one boolean property set; the same id when the block has no such property. */
export function withBoolean(registry: Registry, stateId: number, key: string, value: boolean): number {
  const block = registry.blocksByStateId[stateId];
  const index = (block?.states ?? []).findIndex((state) => state.name === key && state.type === 'bool');
  if (!block || index < 0) return stateId;
  const indices = decode(block, stateId);
  indices[index] = value ? 0 : 1;
  return encode(block, indices);
}
