import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { getJson, journaled, token } from './connection.js';
import type { NodeRow, NodeState } from './model.js';
import { nested, shortStepId, type StepRow } from './steps.js';
import { TrailMap } from './map.js';
import { useShape } from './shapes.js';
import { TreeGraph } from './tree-graph.js';

interface EventRow {
  id: number;
  type: string;
  event: { stepId?: string; outcome?: { ok: boolean; code?: string } };
}

/** Every journaled node state change of a plan. */
const allNodeRows = (planId: string) => journaled<NodeRow>(planId, 'nodes');

const eventLine = (e: EventRow) =>
  `${e.type}${e.event.stepId ? ` ${e.event.stepId}` : ''}${e.event.outcome && !e.event.outcome.ok ? ` ${e.event.outcome.code}` : ''}`;

/** The node states of the step (attempt) that row `index` belongs to, as they stood after it. */
export function statesAt(rows: readonly NodeRow[], index: number): Record<string, NodeState> {
  const row = rows[index];
  const states: Record<string, NodeState> = {};
  if (!row) return states;
  for (let i = 0; i <= index; i++) {
    const r = rows[i]!;
    if (r.stepId !== row.stepId || r.attemptId !== row.attemptId) continue;
    for (const [path, state] of r.changes) states[path] = state;
  }
  return states;
}

/** Which journaled runs there are, each a link to its replay. */
function RunList({ link }: { link: (planId: string) => string }) {
  const [runs, setRuns] = useState<
    { plan_id: string; ok: number | null; code: string | null; started_at: number }[] | null
  >(null);
  useEffect(
    () => void getJson<{ runs: NonNullable<typeof runs> }>('/api/runs?limit=50').then((b) => setRuns(b.runs)),
    [],
  );
  if (!runs) return html`<p>loading runs…</p>`;
  if (runs.length === 0) return html`<p class="muted">the journal holds no runs yet</p>`;
  return html`<table data-runs>
    ${runs.map(
      (r) =>
        html`<tr>
          <td><a href=${link(r.plan_id)} data-replay-link=${r.plan_id}>${r.plan_id}</a></td>
          <td>${new Date(r.started_at).toLocaleString()}</td>
          <td>${r.ok === 1 ? 'ok' : r.ok === 0 ? html`<span class="code">${r.code}</span>` : 'running'}</td>
        </tr>`,
    )}
  </table>`;
}

/**
 * A journaled run scrubbed with a slider: the tree of the step at that moment, its nodes as they stood, and the steps'
 * statuses.
 */
export function Replay({ planId, link }: { planId: string | null; link: (planId: string) => string }) {
  const [rows, setRows] = useState<NodeRow[] | null>(null);
  const [steps, setSteps] = useState<StepRow[]>([]);
  const [events, setEvents] = useState<EventRow[]>([]);
  const [index, setIndex] = useState(0);
  const [error, setError] = useState('');
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    if (!planId) return;
    void Promise.all([
      allNodeRows(planId),
      getJson<{ provenance: { steps: StepRow[] } }>(`/api/runs/${encodeURIComponent(planId)}?limit=1000`),
      journaled<EventRow>(planId, 'events'),
    ]).then(
      ([nodeRows, provenance, eventRows]) => (
        setRows(nodeRows),
        setSteps(nested(provenance.provenance.steps)),
        setEvents(eventRows),
        setIndex(0)
      ),
      (e: Error) => setError(e.message),
    );
  }, [planId]);
  const row = rows?.[index];
  const shape = useShape(row?.tree);
  useEffect(() => {
    if (!playing || !rows) return;
    const timer = setInterval(() => setIndex((i) => (i + 1 < rows.length ? i + 1 : (setPlaying(false), i))), 150);
    return () => clearInterval(timer);
  }, [playing, rows]);
  const header = html`<header>
    <h1>verbtree replay</h1>
    <a href=${link('')} style="color:#93c5fd">runs</a
    ><a href=${`#${token ? `token=${encodeURIComponent(token)}` : ''}`} style="color:#93c5fd" data-live-link>live</a>
  </header>`;
  if (!planId)
    return html`<div>
      ${header}
      <main>
        <section>
          <h2>Journaled runs</h2>
          <${RunList} link=${link} />
        </section>
      </main>
    </div>`;
  if (error)
    return html`<div>
      ${header}
      <p class="code">${error}</p>
    </div>`;
  if (!rows)
    return html`<div>
      ${header}
      <p>loading ${planId}…</p>
    </div>`;
  if (rows.length === 0)
    return html`<div>
      ${header}
      <p class="muted">${planId} has no journaled node states (run before the journal kept them?)</p>
    </div>`;
  // A retracted step had succeeded; a server's restart rolled its effect back (the title holds the evidence).
  const stateLabel = (state: string) => (state === 'retracted' ? 'retracted: undone by a server restart' : state);
  const lastAt = (s: StepRow) => s.transitions.filter((t) => t.at <= row!.at).at(-1);
  const status = (s: StepRow) => lastAt(s)?.to_status ?? 'pending';
  return html`<div>
    ${header}
    <main>
      <section class="replay" style="grid-column: 1 / -1" data-index=${index}>
        <h2>
          ${planId}: change ${index + 1} of ${rows.length}, step
          <span data-replay-step>${row!.stepId}</span> (${row!.tree})
        </h2>
        <input
          type="range"
          min="0"
          max=${rows.length - 1}
          value=${index}
          data-slider
          onInput=${(e: Event) => setIndex(Number((e.target as HTMLInputElement).value))}
        />
        <button data-play onClick=${() => setPlaying(!playing)}>${playing ? 'pause' : 'play'}</button>
        <span class="muted"> ${new Date(row!.at).toLocaleTimeString()}</span>
      </section>
      <section>
        <h2>Steps</h2>
        <table>
          ${steps.map(
            (s) =>
              html`<tr
                class=${status(s) === 'succeeded' ? 'ok' : status(s) === 'failed' || status(s) === 'retracted' ? 'failed' : status(s) === 'in_progress' ? 'running' : ''}
              >
                <td class=${s.step.parent_step_id ? 'sub' : ''} title=${s.step.step_id}>
                  ${s.step.parent_step_id ? '↳ ' : ''}${shortStepId(s.step.step_id, s.step.parent_step_id)}
                </td>
                <td>${s.step.verb}</td>
                <td title=${lastAt(s)?.reason ?? ''}>${stateLabel(status(s))}</td>
              </tr>`,
          )}
        </table>
      </section>
      <section>
        <h2>Tree</h2>
        ${shape ? html`<${TreeGraph} shape=${shape} states=${statesAt(rows, index)} />` : html`<p>loading tree…</p>`}
      </section>
      <section>
        <h2>Where the bot stood</h2>
        <p data-replay-position>
          ${row!.position ? `x ${row!.position.x.toFixed(1)}, y ${row!.position.y.toFixed(1)}, z ${row!.position.z.toFixed(1)}` : 'not recorded'}
        </p>
        <${TrailMap} trail=${rows.slice(0, index + 1).flatMap((r) => (r.position ? [r.position] : []))} />
      </section>
      <section class="log">
        <h2>Events up to here</h2>
        <div data-replay-events>
          ${events
            .filter((e) => row!.eventId !== null && e.id <= row!.eventId)
            .slice(-25)
            .map((e) => html`<div>${eventLine(e)}</div>`)}
        </div>
      </section>
    </main>
  </div>`;
}
