/*
 * How the monitor talks to verbtree's API: plain fetches for reads, the
 * bearer token (from the page's #token=… fragment, which `verbtree serve`
 * prints and a browser never sends to a server) for control and for the
 * event stream, which a browser authenticates with the `bearer.<token>`
 * subprotocol.
 */

export const token: string | undefined = new URLSearchParams(location.hash.slice(1)).get('token') ?? undefined;

export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path);
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body;
}

/** Every journaled row of a plan's node states or events, oldest first, following the API's pages. */
export async function journaled<Row>(planId: string, view: 'nodes' | 'events'): Promise<Row[]> {
  const rows: Row[] = [];
  for (let next: string | null = `/api/runs/${encodeURIComponent(planId)}/${view}?limit=1000`; next;) {
    const body: { nodeStates?: Row[]; events?: Row[]; page: { next: string | null } } = await getJson(next);
    rows.push(...((view === 'nodes' ? body.nodeStates : body.events) ?? []));
    next = body.page.next;
  }
  return rows;
}

/** A plan's executor events as journaled, for a page that connected after it began. */
export const journaledEvents = (planId: string) =>
  journaled<{ event: Record<string, unknown> }>(planId, 'events').then((rows) => rows.map((row) => row.event));

export async function postControl(planId: string, action: 'pause' | 'resume' | 'cancel'): Promise<string> {
  const response = await fetch(`/api/plans/${encodeURIComponent(planId)}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: '{}',
  });
  const body = (await response.json()) as { error?: string };
  return response.ok ? `${action}: done` : `${action}: ${body.error ?? response.statusText}`;
}

/** Opens /api/events and reconnects after a drop; returns the close. */
export function openEvents(
  onMessage: (message: Record<string, unknown>) => void,
  onStatus: (connected: boolean, why?: string) => void,
): () => void {
  let socket: WebSocket | null = null;
  let closed = false;
  const connect = () => {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/events`;
    socket = new WebSocket(url, token ? [`bearer.${token}`] : []);
    socket.onopen = () => onStatus(true);
    socket.onmessage = (event) => {
      try {
        onMessage(JSON.parse(String(event.data)) as Record<string, unknown>);
      } catch {
        // A frame that is not JSON is not ours to show.
      }
    };
    socket.onclose = (event) => {
      onStatus(
        false,
        event.code === 1006
          ? 'connection lost or refused (is the token in the address, #token=…?)'
          : `closed (${event.code})`,
      );
      if (!closed) setTimeout(connect, 1000);
    };
  };
  connect();
  return () => {
    closed = true;
    socket?.close();
  };
}
