import { z } from 'zod';
import { ErrorBody } from './schemas.js';
import { PATH_PARAMS, ROUTES, type ResponseSpec, type RouteSpec } from './route-table.js';

type Json = Record<string, unknown>;

/** The contract's own version: its major moves only when a client would have to change. */
export const API_VERSION = '1.0.0';

/** What each refusal status means, for the document's error responses. */
const ERROR_MEANING: Record<number, string> = {
  400: 'Bad input: a parameter, the body or the path; the error names the field and the fix.',
  401: 'No bearer token, or not the one the server was started with (or control is off: no token at all).',
  403: 'A browser page of an origin the server does not allow.',
  404: 'No such plan, bot, tree or file.',
  409: 'The action changes nothing now, or another run holds the plan.',
  413: 'The body is over the limit (256 KiB unless the server was started with another).',
  422: "The plan (or replacement) does not validate, or is an intent: this server has no planner; 'issues' lists every one.",
  426: 'Not a WebSocket upgrade: open the stream as a WebSocket.',
  503: 'Not now: no bot attached, the journal busy, or the stream full; the answer says which.',
};

/** The headers a refusal carries besides its body. */
const ERROR_HEADERS: Record<number, Record<string, string>> = {
  401: { 'www-authenticate': 'Bearer.' },
  405: { allow: 'The methods the path takes.' },
  503: { 'retry-after': 'Seconds after which to ask again: what the route needs (the journal) is down for now.' },
};

const headerObjects = (headers: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, about]) => [name, { description: about, schema: { type: 'string' } }]),
  );

/** A zod schema as a JSON Schema 2020-12 object (OpenAPI 3.1's dialect), every part inline. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    reused: 'inline',
    unrepresentable: 'any',
  });
  return rest;
}

const pathParamNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

function parameters(route: RouteSpec): Json[] {
  const inPath = pathParamNames(route.path).map((name) => {
    const schema = jsonSchema(PATH_PARAMS[name] ?? z.string(), 'input');
    return { name, in: 'path', required: true, description: schema.description, schema };
  });
  const inQuery = Object.entries(route.query?.shape ?? {}).map(([name, field]) => {
    const schema = jsonSchema(field as z.ZodType, 'input');
    return { name, in: 'query', required: false, description: schema.description, schema };
  });
  return [...inPath, ...inQuery];
}

function response({ description, schema, contentType, headers }: ResponseSpec): Json {
  return {
    description,
    ...(headers ? { headers: headerObjects(headers) } : {}),
    ...(schema
      ? { content: { 'application/json': { schema: jsonSchema(schema, 'output') } } }
      : contentType
        ? { content: { [contentType]: { schema: { type: 'string' } } } }
        : {}),
  };
}

function operation(id: string, route: RouteSpec): Json {
  const errors = Object.fromEntries(
    route.errors.map((status) => [
      String(status),
      {
        description: ERROR_MEANING[status] ?? 'Refused.',
        ...(status in ERROR_HEADERS ? { headers: headerObjects(ERROR_HEADERS[status]!) } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
      },
    ]),
  );
  const answers = Object.fromEntries(Object.entries(route.responses).map(([status, r]) => [status, response(r)]));
  const params = parameters(route);
  return {
    operationId: id,
    summary: route.summary,
    tags: [route.tag],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(route.auth ? { security: [{ bearer: [] }] } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: route.body.required,
            content: { 'application/json': { schema: jsonSchema(route.body.schema, 'input') } },
          },
        }
      : {}),
    responses: { ...answers, ...errors },
  };
}

/** The OpenAPI 3.1 document of every route in the table, its schemas converted by zod from the ones the server reads. */
export function openApiDocument(): Json {
  const paths: Record<string, Json> = {};
  for (const [id, route] of Object.entries(ROUTES) as [string, RouteSpec][]) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(id, route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'verbtree HTTP API',
      version: API_VERSION,
      description:
        "Plans in, verified action out: submit a plan, follow its events, read a failure's code and evidence, steer a run. Every refusal is an ErrorBody naming the field and the fix.",
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'runs', description: 'Submitting plans and following them.' },
      { name: 'control', description: 'Steering a running plan.' },
      { name: 'bots', description: 'The bots and what they can do.' },
      { name: 'journal', description: "The journal's health and incidents." },
      { name: 'server', description: 'The server itself.' },
      { name: 'monitor', description: 'The web monitor and 3D views.' },
    ],
    paths,
    components: {
      schemas: { ErrorBody: jsonSchema(ErrorBody, 'output') },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token the server was started with (--token).' },
      },
    },
  };
}
