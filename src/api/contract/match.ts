import { CONTROL_ACTIONS } from '../../operations/runs.js';
import { HttpError } from '../http-error.js';
import { ROUTES, type Method, type RouteId, type RouteSpec } from './route-table.js';

export interface RouteMatch {
  id: RouteId;
  route: RouteSpec;
  /** Each `{name}` of the template, percent-decoded; a `rest` route's last one is left raw (it may hold slashes). */
  params: Record<string, string>;
}

type Segment = { literal: string } | { param: string; rest: boolean };

interface Compiled {
  id: RouteId;
  route: RouteSpec;
  segments: Segment[];
}

const COMPILED: Compiled[] = (Object.entries(ROUTES) as [RouteId, RouteSpec][]).map(([id, route]) => {
  const parts = route.path.slice(1).split('/');
  const segments = parts.map((part, i): Segment => {
    const param = /^\{(\w+)\}$/.exec(part)?.[1];
    return param ? { param, rest: Boolean(route.rest) && i === parts.length - 1 } : { literal: part };
  });
  return { id, route, segments };
});

export function decodePath(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(
      400,
      `malformed percent-encoding in "${segment.slice(0, 100)}": encode the plan id with encodeURIComponent`,
    );
  }
}

/** The template's params when the path fits it, else null. */
function fit(compiled: Compiled, parts: readonly string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const [i, segment] of compiled.segments.entries()) {
    if ('literal' in segment) {
      if (parts[i] !== segment.literal) return null;
    } else if (segment.rest) {
      if (parts.length <= i) return null;
      params[segment.param] = parts.slice(i).join('/');
      return params;
    } else {
      if (!parts[i]) return null;
      params[segment.param] = decodePath(parts[i]);
    }
  }
  return parts.length === compiled.segments.length ? params : null;
}

/** Every route as "METHOD path", for a miss to list. */
export const ROUTE_LIST = COMPILED.map(({ route }) => `${route.method} ${route.path}`);

/**
 * The table's route for a request: HEAD is answered as GET. A path no route fits is a 404 listing the routes; a
 * path that fits only routes of other methods is a 405 naming them.
 */
export function matchRoute(method: string, pathname: string): RouteMatch {
  const parts = pathname.slice(1).split('/');
  const asked = method === 'HEAD' ? 'GET' : method;
  const allow: Method[] = [];
  for (const compiled of COMPILED) {
    const params = fit(compiled, parts);
    if (!params) continue;
    if (compiled.route.method === asked) return { id: compiled.id, route: compiled.route, params };
    allow.push(compiled.route.method);
  }
  if (allow.length > 0)
    throw new HttpError(405, `${pathname} takes ${allow.join(', ')}, not ${method}`, { allow: allow.join(', ') });
  throw new HttpError(404, missMessage(method, pathname));
}

function missMessage(method: string, pathname: string): string {
  if (pathname.startsWith('/api/plans/')) {
    const action = pathname.split('/')[4];
    if (action && pathname.split('/').length === 5)
      return `no control action "${decodePath(action).slice(0, 60)}": use ${CONTROL_ACTIONS.join(', ')}`;
    return 'control routes are POST /api/plans/<planId>/<pause|resume|cancel|replace>';
  }
  return `no route ${method} ${pathname.slice(0, 200)}; the routes are ${ROUTE_LIST.join(', ')} (GET /api/openapi.json describes each)`;
}
