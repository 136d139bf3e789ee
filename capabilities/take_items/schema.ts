import type { z } from 'zod';
import { chestTransferArgs } from '../store_items/schema.js';

export const TakeItemsArgs = chestTransferArgs('take');
export type TakeItemsArgs = z.output<typeof TakeItemsArgs>;
