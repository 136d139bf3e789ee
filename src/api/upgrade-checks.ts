import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const digest = (text: string) => createHash('sha256').update(text).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/**
 * The browser form of the token: `Sec-WebSocket-Protocol: bearer.<token>` (browsers cannot set Authorization on a
 * WebSocket).
 */
const PROTOCOL_PREFIX = 'bearer.';

export interface UpgradeRules {
  token: string | undefined;
  allowOrigins: readonly string[];
  full: boolean;
}

/**
 * Why a WebSocket upgrade to /api/events is refused, or null to accept it:
 * another path (404); a browser page from another origin (403; pages of this
 * server and of `allowOrigins` may connect, clients that send no Origin are
 * not browsers); without the server's token when it has one (401: the header
 * `Authorization: Bearer <token>`, or the subprotocol `bearer.<token>`); and
 * when the client cap is reached (503).
 */
export function refuseUpgrade(
  request: IncomingMessage,
  rules: UpgradeRules,
): { status: string; reason: string } | null {
  let path: string;
  try {
    path = new URL(request.url ?? '/', 'http://localhost').pathname;
  } catch {
    return { status: '400 Bad Request', reason: 'malformed request target' };
  }
  if (path !== '/api/events')
    return { status: '404 Not Found', reason: `no WebSocket at ${path}; the event stream is /api/events` };
  const origin = request.headers.origin;
  if (origin !== undefined && !sameOrigin(origin, request.headers.host) && !rules.allowOrigins.includes(origin)) {
    return {
      status: '403 Forbidden',
      reason: `a page from ${origin} may not read the event stream: start serve with --allow-origin ${origin}`,
    };
  }
  if (rules.token !== undefined && !carriesToken(request, rules.token)) {
    return {
      status: '401 Unauthorized',
      reason:
        'the event stream needs the bearer token: send "Authorization: Bearer <token>" or the subprotocol "bearer.<token>"',
    };
  }
  if (rules.full)
    return { status: '503 Service Unavailable', reason: 'too many event-stream clients; try again later' };
  return null;
}

function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

function carriesToken(request: IncomingMessage, token: string): boolean {
  const header = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
  if (header && sameSecret(header[1]!.trim(), token)) return true;
  const protocols = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  return protocols.some((p) => p.startsWith(PROTOCOL_PREFIX) && sameSecret(p.slice(PROTOCOL_PREFIX.length), token));
}
