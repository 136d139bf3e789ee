import { chestTransferArgs } from 'verbtree';
import type { z } from 'zod';

export const TakeItemsArgs = chestTransferArgs('take');
export type TakeItemsArgs = z.output<typeof TakeItemsArgs>;
