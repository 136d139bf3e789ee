export { createApiServer, type ApiServer, type ApiServerOptions } from './server.js';
export { createExecutorMetrics, type ExecutorMetrics } from './metrics.js';
export { DEFAULT_BODY_LIMIT } from './body.js';
export { HttpError } from './http-error.js';
export type { ApiContext } from './routes.js';
