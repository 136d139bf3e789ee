import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { getJson, openEvents, postControl, token } from './connection.js';
import { Health } from './health.js';
import { TrailMap } from './map.js';
import { apply, emptyModel, type Model, type StepView } from './model.js';
import { shapeOf } from './shapes.js';
import { TreeGraph, type TreeShape } from './tree-graph.js';

const ms = (value: number | null) => (value === null ? '' : value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`);

function Timeline({ steps }: { steps: StepView[] }) {
  return html`<table data-timeline>
    <tr><th>step</th><th>verb</th><th>status</th><th>TTFA</th><th>duration</th><th>tries</th><th>notes</th></tr>
    ${steps.map(
      (s) => html`<tr class=${s.status} data-step=${s.stepId} data-status=${s.status}>
        <td class=${s.parentStepId ? 'sub' : ''}>${s.parentStepId ? '↳ ' : ''}${s.stepId}</td><td>${s.verb}</td>
        <td>${s.status === 'failed' ? html`<span class="code" title=${s.detail}>${s.code}</span>` : s.status}</td>
        <td>${ms(s.ttfaMs)}</td><td>${ms(s.durationMs)}</td><td>${s.attempts}${s.retries ? ` (${s.retries} retries)` : ''}${s.repairs ? `, ${s.repairs} repairs` : ''}</td>
        <td class="muted">${s.notes.join('; ')}</td>
      </tr>`,
    )}
  </table>`;
}

/** The live view: the bot, its plan's timeline, the running step's tree, and where it walked. */
export function Live() {
  const [model] = useState<Model>(emptyModel);
  const [, redraw] = useState(0);
  const [shape, setShape] = useState<TreeShape | null>(null);
  const [said, setSaid] = useState('');
  const [viewer, setViewer] = useState<string | null>(null);
  const [show3d, setShow3d] = useState(false);
  useEffect(() => void getJson<{ viewer?: string | null }>('/api/bot/status').then((status) => setViewer(status.viewer ?? null), () => undefined), []);
  useEffect(() => {
    let queued = false;
    // Messages come in bursts: redraw at most once a frame.
    const schedule = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => ((queued = false), redraw((n) => n + 1)));
    };
    const close = openEvents(
      (message) => (apply(model, message), schedule()),
      (connected, why) => ((model.connected = connected), (model.status = connected ? 'live' : (why ?? 'disconnected')), schedule()),
    );
    const tick = setInterval(schedule, 250);
    return () => (close(), clearInterval(tick));
  }, []);
  const run = model.focus !== undefined ? model.runs.get(model.focus) : undefined;
  useEffect(() => {
    if (run && run.tree !== shape?.name) void shapeOf(run.tree).then(setShape, () => setShape(null));
  }, [run?.tree]);
  const control = (action: 'pause' | 'resume' | 'cancel') => model.planId && void postControl(model.planId, action).then(setSaid);
  const { bot } = model;
  return html`<div>
    <header>
      <h1>verbtree monitor</h1>
      <span class="status" data-connection=${model.connected ? 'live' : 'down'}>${model.status}</span>
      <span class="state ${model.agent}" data-agent-state>${model.agent}</span>
      <span class="bot">${bot.position ? html`<span data-position>pos ${bot.position.x.toFixed(1)}, ${bot.position.y.toFixed(1)}, ${bot.position.z.toFixed(1)}</span>` : null}
        ${bot.health !== undefined ? html`<span data-health>health ${bot.health}</span><span>food ${bot.food}</span>` : null}</span>
      <span>${model.planId ? html`plan <b data-plan>${model.planId}</b> <span data-plan-state>${model.planState}</span>` : 'no plan yet'}</span>
      <span class="controls">
        <button data-control="pause" disabled=${!model.planId} onClick=${() => control('pause')}>pause</button>
        <button data-control="resume" disabled=${!model.planId} onClick=${() => control('resume')}>resume</button>
        <button data-control="cancel" disabled=${!model.planId} onClick=${() => control('cancel')}>cancel</button>
        <span class="muted" data-said>${said}</span>
      </span>
      <a href=${`#${new URLSearchParams({ ...(token ? { token } : {}), replay: "" }).toString()}`} style="color:#93c5fd" data-runs-link>replay a run</a>
    </header>
    <main>
      <section><h2>Timeline</h2><${Timeline} steps=${model.steps} /></section>
      <section>
        <h2>Tree ${run ? html`<span data-run-tree>${run.tree}</span> (step ${run.stepId ?? '?'})` : ''}</h2>
        ${run?.outcome && !run.outcome.ok ? html`<p data-failure>failed: <span class="code">${run.outcome.code}</span> ${run.outcome.detail ?? ''}</p>` : null}
        ${run && shape && shape.name === run.tree
          ? html`<${TreeGraph} shape=${shape} states=${run.states} since=${run.since} now=${performance.now()} failing=${run.outcome && !run.outcome.ok ? run.outcome : undefined} />`
          : html`<p class="muted">no tree running yet</p>`}
      </section>
      <section><h2>Map (top-down)</h2><${TrailMap} trail=${model.trail} /></section>
      ${viewer
        ? html`<section style="grid-column: 1 / -1"><h2>World (3D, prismarine-viewer)</h2>
            ${show3d
              ? html`<iframe src=${viewer} data-viewer style="width:100%;height:420px;border:0"></iframe>`
              : html`<button data-show-3d onClick=${() => setShow3d(true)}>show the 3D view</button> <span class="muted">(loads about 65 MB of textures and renders in WebGL)</span>`}
          </section>`
        : null}
      <section><h2>SLA per capability (journal)</h2><${Health} /></section>
      <section class="log"><h2>Events</h2>${model.log.slice(-60).map((line) => html`<div>${line}</div>`)}</section>
    </main>
  </div>`;
}
