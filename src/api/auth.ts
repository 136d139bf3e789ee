import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Refuses (401) a request without `Authorization: Bearer <token>` matching the server's token; compares in constant
 * time.
 */
export function requireBearer(request: IncomingMessage, token: string | undefined): void {
  if (!token)
    throw new HttpError(401, 'control endpoints are disabled: start the server with --token <T> or VERBTREE_TOKEN set');
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match) throw new HttpError(401, 'missing bearer token: send the header "Authorization: Bearer <token>"');
  if (!timingSafeEqual(digest(match[1]!.trim()), digest(token)))
    throw new HttpError(401, 'the bearer token is not the one this server was started with');
}
