export { startEmbeddedServer } from './embedded-server.js';
export type {
  EmbeddedServer,
  EmbeddedServerOptions,
  InProcessEmbeddedServer,
  ServerPlayerState,
} from './embedded-server.js';
export { startEmbeddedWorld } from './embedded-world.js';
export type { EmbeddedWorld, EmbeddedWorldOptions } from './embedded-world.js';
export { startEmbeddedServerInChild } from './child-server.js';
export type { ChildEmbeddedServer } from './child-server.js';
export { prepareWorldFolder, readWorldMarker, readSavedAt, type WorldMarker } from './world-folder.js';
