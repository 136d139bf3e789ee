import { HttpError } from './http-error.js';

/** Largest request body the API reads; a plan of hundreds of steps fits well within it. */
export const DEFAULT_BODY_LIMIT = 256 * 1024;

/** A body's text as JSON (any content type: `curl -d` sends a form's), undefined when empty; malformed JSON is a 400. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `the body is not valid JSON: ${(error as Error).message}`);
  }
}

/** A body the route cannot do without: an empty one is a 400 saying what to send. */
export function requiredBody(body: unknown): unknown {
  if (body === undefined)
    throw new HttpError(400, 'the body is empty; send a plan as JSON ({ "planId", "intentId", "steps": [...] })');
  return body;
}

/** The framework's refusal of an oversize body (413), in the API's words: refused as soon as it passes the limit. */
export function oversize(declared: string | undefined, limit: number): HttpError {
  const length = Number(declared ?? NaN);
  return new HttpError(
    413,
    length > limit
      ? `the body is ${length} bytes, over the limit of ${limit}; send a smaller plan`
      : `the body passed the limit of ${limit} bytes; send a smaller plan`,
  );
}
