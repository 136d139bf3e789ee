import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { VerbtreeMcp } from './server.js';

/** The one path MCP answers on. */
export const MCP_PATH = '/mcp';
/** A request body larger than this is refused: a plan holds at most 5,000 steps, far less. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export interface HttpOptions {
  /** 0 picks a free port. */
  port: number;
  /** Every request must carry `Authorization: Bearer <token>`. */
  token: string;
  log?: (line: string) => void;
}

export interface ServedHttp {
  url: string;
  close(): Promise<void>;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Why a request is refused before MCP sees it, or null to let it through. */
function refusal(request: IncomingMessage, port: number, token: string): { status: number; message: string } | null {
  // DNS rebinding: a page of any site can make a browser send requests to 127.0.0.1 under its own host name.
  const allowed = LOOPBACK_NAMES.map((name) => `${name}:${port}`);
  const host = request.headers.host ?? '';
  if (!allowed.includes(host))
    return { status: 403, message: `Host "${host.slice(0, 100)}" is not this server's; use ${allowed[0]}` };
  const origin = request.headers.origin;
  if (origin !== undefined && !allowed.some((a) => origin === `http://${a}`))
    return { status: 403, message: `a page from ${origin.slice(0, 100)} may not call this server` };
  const path = new URL(request.url ?? '/', `http://${host}`).pathname;
  if (path !== MCP_PATH) return { status: 404, message: `no MCP endpoint at ${path.slice(0, 100)}; it is ${MCP_PATH}` };
  const match = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
  if (!match) return { status: 401, message: 'missing bearer token: send the header "Authorization: Bearer <token>"' };
  if (!timingSafeEqual(digest(match[1]!.trim()), digest(token)))
    return { status: 401, message: 'the bearer token is not the one this server was started with' };
  return null;
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
  });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error(`the request body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text.length === 0 ? undefined : (JSON.parse(text) as unknown);
}

/**
 * MCP over Streamable HTTP on 127.0.0.1 only, behind the bearer token, refusing a Host or Origin that is not this
 * server's (DNS rebinding). Each client session gets its own MCP session over the one VerbtreeMcp.
 */
export async function serveHttp(mcp: VerbtreeMcp, options: HttpOptions): Promise<ServedHttp> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let port = options.port;
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const refused = refusal(request, port, options.token);
    if (refused) return refuse(response, refused.status, refused.message);
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    const id = request.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return known.handleRequest(request, response, body);
    if (typeof id === 'string') return refuse(response, 404, `no session ${id.slice(0, 60)}: initialize a new one`);
    if (request.method !== 'POST' || !isInitializeRequest(body))
      return refuse(response, 400, 'no mcp-session-id header: start with an initialize request');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await mcp.createSession().connect(transport);
    await transport.handleRequest(request, response, body);
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.log?.(`mcp http: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) refuse(response, 400, error instanceof Error ? error.message : 'bad request');
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
