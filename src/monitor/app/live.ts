import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { getJson, journaled, journaledEvents, openEvents, postControl, token } from './connection.js';
import { Health } from './health.js';
import { TrailMap } from './map.js';
import { shortStepId } from './steps.js';
import { applyFleet, caughtUp, emptyFleet, type CatchUp, type Fleet } from './fleet.js';
import { describeWait, emptyModel, type NodeRow, type StepView } from './model.js';
import { useShape } from './shapes.js';
import { TreeGraph } from './tree-graph.js';

const ms = (value: number | null) =>
  value === null ? '' : value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;

function Timeline({ steps }: { steps: StepView[] }) {
  return html`<table data-timeline>
    <tr>
      <th>step</th>
      <th>verb</th>
      <th>status</th>
      <th>TTFA</th>
      <th>duration</th>
      <th>tries</th>
      <th>notes</th>
    </tr>
    ${steps.map(
      (s) =>
        html`<tr class=${s.status} data-step=${s.stepId} data-status=${s.status}>
          <td class=${s.parentStepId ? 'sub' : ''} title=${s.stepId}>
            ${s.parentStepId ? '↳ ' : ''}${shortStepId(s.stepId, s.parentStepId)}
          </td>
          <td>${s.verb}</td>
          <td>
            ${s.status === 'failed' ? html`<span class="code" title=${s.detail}>${s.code}</span>` : s.status}
            ${s.status === 'running' && s.progress ? html` <span class="muted" data-progress>${s.progress}</span>` : ''}
          </td>
          <td>${ms(s.ttfaMs)}</td>
          <td>${ms(s.durationMs)}</td>
          <td>
            ${s.attempts}${s.retries ? ` (${s.retries} retries)` : ''}${s.repairs ? `, ${s.repairs} repairs` : ''}
          </td>
          <td class="muted notes" title=${s.notes.join('\n')}>${s.notes.join('; ')}</td>
        </tr>`,
    )}
  </table>`;
}

const selectedInHash = () => new URLSearchParams(location.hash.slice(1)).get('bot');

/** One card per bot: its state, plan and place; a click shows that bot below. */
function FleetBar({
  fleet,
  selected,
  select,
}: {
  fleet: Fleet;
  selected: string | undefined;
  select: (name: string) => void;
}) {
  if (fleet.order.length < 2) return null;
  return html`<nav class="fleet" data-fleet>
    ${fleet.order.map((name) => {
      const bot = fleet.bots.get(name)!;
      const p = bot.bot.position;
      return html`<button
        class=${name === selected ? 'card selected' : 'card'}
        data-bot=${name}
        data-bot-state=${bot.agent}
        onClick=${() => select(name)}
      >
        <b>${name}</b> <span class="state ${bot.agent}">${bot.agent}</span>
        <span class="muted">${bot.planId ? `${bot.planId}: ${bot.planState}` : 'no plan'}</span>
        ${bot.bot.waiting ? html`<span class="waiting" data-waiting>${describeWait(bot.bot.waiting)}</span>` : null}
        <span class="muted"
          >${[
            p ? `${p.x.toFixed(0)}, ${p.y.toFixed(0)}, ${p.z.toFixed(0)}` : null,
            bot.bot.health !== undefined ? `health ${bot.bot.health} · food ${bot.bot.food}` : null,
            bot.bot.holder ? `held by ${bot.bot.holder}` : null,
          ]
            .filter((part) => part !== null)
            .join(' · ')}</span
        >
      </button>`;
    })}
  </nav>`;
}

/**
 * The live view: every bot at a glance, and for the one chosen its plan's timeline, the running step's tree, and where
 * it walked.
 */
export function Live() {
  const [fleet] = useState<Fleet>(emptyFleet);
  const [, redraw] = useState(0);
  const [said, setSaid] = useState('');
  const [viewers, setViewers] = useState<Record<string, string>>({});
  const [show3d, setShow3d] = useState(false);
  const [chosen, setChosen] = useState<string | null>(selectedInHash);
  useEffect(() => {
    const viewersOf = (list: { bots: { bot: string; viewer: string | null }[] }) =>
      Object.fromEntries(list.bots.flatMap((b) => (b.viewer ? [[b.bot, b.viewer]] : [])));
    void getJson<{ bots: { bot: string; viewer: string | null }[] }>('/api/bots').then(
      (list) => setViewers(viewersOf(list)),
      () => undefined,
    );
  }, []);
  useEffect(() => {
    let queued = false;
    // Messages come in bursts: redraw at most once a frame.
    const schedule = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => ((queued = false), redraw((n) => n + 1)));
    };
    // A plan that began before the page connected: its events so far come from the journal.
    const catchUp = ({ bot, plan }: CatchUp) =>
      void Promise.all([journaledEvents(plan), journaled<NodeRow>(plan, 'nodes')]).then(
        ([events, nodes]) => (caughtUp(fleet, bot, { events, nodes }), schedule()),
        () => (caughtUp(fleet, bot, { events: [], nodes: [] }), schedule()),
      );
    const close = openEvents(
      (message) => (applyFleet(fleet, message).forEach(catchUp), schedule()),
      (connected, why) => (
        (fleet.connected = connected),
        (fleet.status = connected ? 'live' : (why ?? 'disconnected')),
        schedule()
      ),
    );
    const tick = setInterval(schedule, 250);
    return () => (close(), clearInterval(tick));
  }, []);
  const selected = chosen !== null && fleet.bots.has(chosen) ? chosen : fleet.order[0];
  const model = selected !== undefined ? fleet.bots.get(selected)! : emptyModel('');
  const select = (name: string) => {
    setChosen(name);
    setShow3d(false);
    const params = new URLSearchParams(location.hash.slice(1));
    params.set('bot', name);
    history.replaceState(null, '', `#${params.toString()}`);
  };
  const run = model.focus !== undefined ? model.runs.get(model.focus) : undefined;
  // A step can fail after its tree succeeded: its effects were not confirmed in the world.
  const runStep = run?.stepId !== undefined ? model.steps.findLast((s) => s.stepId === run.stepId) : undefined;
  const shape = useShape(run?.tree);
  const control = (action: 'pause' | 'resume' | 'cancel') =>
    model.planId && void postControl(model.planId, action).then(setSaid);
  const { bot } = model;
  const viewer = selected !== undefined ? viewers[selected] : undefined;
  const others = fleet.order
    .filter((name) => name !== selected)
    .flatMap((name) => {
      const p = fleet.bots.get(name)!.bot.position;
      return p ? [{ name, x: p.x, z: p.z }] : [];
    });
  return html`<div>
    <header>
      <h1>verbtree monitor</h1>
      <span class="status" data-connection=${fleet.connected ? 'live' : 'down'}>${fleet.status}</span>
      <span data-selected-bot>${selected ?? 'no bot attached'}</span>
      <span class="state ${model.agent}" data-agent-state>${model.agent}</span>
      ${bot.waiting ? html`<span class="waiting" data-waiting>${describeWait(bot.waiting)}</span>` : null}
      <span class="bot"
        >${bot.position ? html`<span data-position>pos ${bot.position.x.toFixed(1)}, ${bot.position.y.toFixed(1)}, ${bot.position.z.toFixed(1)}</span>` : null}
        ${bot.health !== undefined ? html`<span data-health>health ${bot.health}</span><span>food ${bot.food}</span>` : null}</span
      >
      <span
        >${model.planId ? html`plan <b data-plan>${model.planId}</b> <span data-plan-state>${model.planState}</span>` : 'no plan yet'}</span
      >
      <span class="controls">
        <button data-control="pause" disabled=${!model.planId} onClick=${() => control('pause')}>pause</button>
        <button data-control="resume" disabled=${!model.planId} onClick=${() => control('resume')}>resume</button>
        <button data-control="cancel" disabled=${!model.planId} onClick=${() => control('cancel')}>cancel</button>
        <span class="muted" data-said>${said}</span>
      </span>
      <a
        href=${`#${new URLSearchParams({ ...(token ? { token } : {}), replay: '' }).toString()}`}
        style="color:#93c5fd"
        data-runs-link
        >replay a run</a
      >
    </header>
    <${FleetBar} fleet=${fleet} selected=${selected} select=${select} />
    <main>
      <section>
        <h2>Timeline</h2>
        <${Timeline} steps=${model.steps} />
      </section>
      <section>
        <h2>Tree ${run ? html`<span data-run-tree>${run.tree}</span> (step ${run.stepId ?? '?'})` : ''}</h2>
        ${
          run?.outcome && !run.outcome.ok
            ? html`<p data-failure>
                failed: <span class="code">${run.outcome.code}</span> ${run.outcome.detail ?? ''}
              </p>`
            : runStep?.status === 'failed'
              ? html`<p data-failure>
                  the tree ran, but its step failed: <span class="code">${runStep.code}</span> ${runStep.detail ?? ''}
                </p>`
              : null
        }
        ${
          run && shape
            ? html`<${TreeGraph}
                shape=${shape}
                states=${run.states}
                since=${run.since}
                now=${performance.now()}
                failing=${run.outcome && !run.outcome.ok ? run.outcome : undefined}
              />`
            : html`<p class="muted">no tree running yet</p>`
        }
      </section>
      <section>
        <h2>Map (top-down)</h2>
        <${TrailMap} trail=${model.trail} others=${others} />
      </section>
      ${
        viewer
          ? html`<section style="grid-column: 1 / -1">
              <h2>World (3D, prismarine-viewer, as ${selected} sees it)</h2>
              ${
                show3d
                  ? html`<iframe src=${viewer} data-viewer style="width:100%;height:420px;border:0"></iframe>`
                  : html`<button data-show-3d onClick=${() => setShow3d(true)}>show the 3D view</button>
                      <span class="muted">(loads about 65 MB of textures and renders in WebGL)</span>`
              }
            </section>`
          : null
      }
      <section>
        <h2>SLA per capability (journal)</h2>
        <${Health} />
      </section>
      <section class="log">
        <h2>Events</h2>
        ${model.log.slice(-60).map((line) => html`<div>${line}</div>`)}
      </section>
    </main>
  </div>`;
}
