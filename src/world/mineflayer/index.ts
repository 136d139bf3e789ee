export { MineflayerWorld } from './mineflayer-world.js';
export type { MineflayerWorldOptions, ServerTruth } from './mineflayer-world.js';
export { connectMineflayerWorld } from './connect.js';
export type { ConnectOptions } from './connect.js';
export { botFooting, describeGoal, unmetArrival } from './goals.js';
export { botActuator } from './native.js';
export type { BotHandle } from './bot-handle.js';
export { botOf } from './bot-of.js';
