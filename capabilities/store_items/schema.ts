import type { z } from 'zod';
import { chestTransferArgs } from 'verbtree';

export const StoreItemsArgs = chestTransferArgs('store');
export type StoreItemsArgs = z.output<typeof StoreItemsArgs>;
