import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { OperationError } from '../operations/errors.js';
import { requireBearer } from './auth.js';
import { oversize, parseJsonBody } from './body.js';
import { matchRoute } from './contract/match.js';
import { ROUTES, type RouteId, type RouteSpec } from './contract/route-table.js';
import { handlers, onlyParams, type HandlerDeps } from './handlers.js';
import { HttpError, httpErrorOf } from './http-error.js';
import type { Reply } from './routes.js';

/** A table path as Fastify's router spells it: `{name}` is `:name`, a rest route's last one the wildcard. */
const fastifyPath = (route: RouteSpec) =>
  route.path.replace(/\{(\w+)\}$/, route.rest ? '*' : ':$1').replace(/\{(\w+)\}/g, ':$1');

const queryOf = (request: FastifyRequest) => new URL(request.url, 'http://localhost').searchParams;

function send(reply: FastifyReply, answer: Reply): FastifyReply {
  const text =
    typeof answer.body === 'string' || Buffer.isBuffer(answer.body) ? answer.body : JSON.stringify(answer.body);
  return reply
    .code(answer.status)
    .headers({ 'content-type': answer.contentType ?? 'application/json; charset=utf-8', ...answer.headers })
    .send(text);
}

/** Any refusal as the API's error body: an operation's by its kind, the framework's own in the API's words. */
function refusal(raw: unknown, request: FastifyRequest, bodyLimit: number): HttpError {
  if (raw instanceof OperationError) return httpErrorOf(raw);
  if (raw instanceof HttpError) return raw;
  const framework = raw as { code?: string; statusCode?: number; message?: string };
  if (framework.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return oversize(request.headers['content-length'], bodyLimit);
  if (framework.code === 'FST_ERR_BAD_URL')
    return new HttpError(
      400,
      `malformed percent-encoding in "${request.url.slice(0, 100)}": encode the plan id with encodeURIComponent`,
    );
  const status = framework.statusCode && framework.statusCode < 500 ? framework.statusCode : 500;
  return new HttpError(status, framework.message ?? String(raw));
}

/**
 * The API's routes on Fastify, one per row of the route table: Fastify routes, reads bodies within the limit and
 * answers HEAD; the token and the query's names are checked when the request arrives, before its body is read (a
 * client retrying a 401 or 400 never runs a plan twice). A path no row fits answers as the table says (404, or
 * 405 naming the methods it takes).
 */
export function createHttpApp(deps: HandlerDeps): FastifyInstance {
  const bodyLimit = deps.ctx.bodyLimit;
  const answerRefusal = (raw: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const error = refusal(raw, request, bodyLimit);
    const { status, extra } = error;
    if (status === 405 && typeof extra.allow === 'string') void reply.header('allow', extra.allow);
    if (status === 401) void reply.header('www-authenticate', 'Bearer');
    // What the refusal says beside its body (Retry-After on a 503: a dependency that is down).
    for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
    // An unread body (refused before reading) must not keep the connection busy.
    if (status === 413 || status === 401) void reply.header('connection', 'close');
    return send(reply, { status, body: { success: false, error: error.message, ...extra } });
  };
  const app = Fastify({
    bodyLimit,
    forceCloseConnections: true,
    // Plan ids reach 200 characters, past the router's default limit on a parameter.
    routerOptions: { maxParamLength: 2000 },
    frameworkErrors: (error, request, reply) => {
      answerRefusal(error, request, reply);
    },
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => {
    try {
      done(null, parseJsonBody(text as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  const handle = handlers(deps);
  for (const [id, route] of Object.entries(ROUTES) as [RouteId, RouteSpec][]) {
    app.route({
      method: route.method,
      url: fastifyPath(route),
      onRequest: (request, _reply, done) => {
        try {
          if (route.auth) requireBearer(request.raw, deps.ctx.token);
          if (route.strictQuery) onlyParams(queryOf(request), Object.keys(route.query?.shape ?? {}));
          done();
        } catch (refused) {
          done(refused as Error);
        }
      },
      handler: async (request, reply) => {
        const { '*': rest, ...named } = request.params as Record<string, string>;
        const params = rest === undefined ? named : { ...named, [route.path.match(/\{(\w+)\}$/)![1]!]: rest };
        return send(
          reply,
          await handle[id]({ request: request.raw, query: queryOf(request), params, body: request.body }),
        );
      },
    });
  }
  // Fastify's router and the table's matcher see the same templates: a miss in one is a miss in the other, which
  // says 404 or 405 and lists the routes.
  app.setNotFoundHandler((request, reply) => {
    try {
      matchRoute(request.method, new URL(request.url, 'http://localhost').pathname);
      answerRefusal(new HttpError(404, `no route ${request.method} ${request.url.slice(0, 200)}`), request, reply);
    } catch (miss) {
      answerRefusal(miss, request, reply);
    }
  });
  app.setErrorHandler((raw, request, reply) => {
    answerRefusal(raw, request, reply);
  });
  return app;
}
