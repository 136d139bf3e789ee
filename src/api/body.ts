import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-error.js';

/** Largest request body the API reads; a plan of hundreds of steps fits well within it. */
export const DEFAULT_BODY_LIMIT = 256 * 1024;

/** Reads a JSON body, refusing oversize bodies (413) as soon as they pass the limit and malformed JSON (400). */
export async function readJsonBody(
  request: IncomingMessage,
  limit: number,
  options: { optional?: boolean } = {},
): Promise<unknown> {
  const declared = Number(request.headers['content-length'] ?? NaN);
  if (declared > limit)
    throw new HttpError(413, `the body is ${declared} bytes, over the limit of ${limit}; send a smaller plan`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, `the body passed the limit of ${limit} bytes; send a smaller plan`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '' && options.optional) return undefined;
  if (text.trim() === '')
    throw new HttpError(400, 'the body is empty; send a plan as JSON ({ "planId", "intentId", "steps": [...] })');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `the body is not valid JSON: ${(error as Error).message}`);
  }
}
