import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { getJson } from './connection.js';

interface Sla {
  capability: string;
  runs: number;
  successRate: number;
  meanTtfaMs: number | null;
  meanDurationMs: number | null;
  lastFailureCode: string | null;
}

interface Incident {
  id: number;
  plan_id: string | null;
  step_id: string | null;
  failure_mode: string;
  detected_at: number;
  resolved_at: number | null;
}

const ms = (v: number | null) => (v === null ? '' : v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`);

/** Measured SLA per capability (over the journal) and the latest incidents, read every few seconds. */
export function Health({ everyMs = 5000 }: { everyMs?: number }) {
  const [sla, setSla] = useState<Sla[]>([]);
  const [incidents, setIncidents] = useState<Incident[]>([]);
  useEffect(() => {
    const read = () => {
      void getJson<{ capabilities: { sla: { journal: Sla | null } }[] }>('/api/capabilities').then(
        (b) => setSla(b.capabilities.flatMap((c) => (c.sla.journal ? [c.sla.journal] : []))),
        () => undefined,
      );
      void getJson<{ incidents: Incident[] }>('/api/incidents?limit=10').then(
        (b) => setIncidents(b.incidents),
        () => undefined,
      );
    };
    read();
    const timer = setInterval(read, everyMs);
    return () => clearInterval(timer);
  }, []);
  return html`<div>
    <table data-sla>
      <tr>
        <th>capability</th>
        <th>runs</th>
        <th>success</th>
        <th>mean TTFA</th>
        <th>mean duration</th>
        <th>last failure</th>
      </tr>
      ${sla.map(
        (s) =>
          html`<tr>
            <td>${s.capability}</td>
            <td>${s.runs}</td>
            <td>${Math.round(s.successRate * 100)} %</td>
            <td>${ms(s.meanTtfaMs)}</td>
            <td>${ms(s.meanDurationMs)}</td>
            <td class="code">${s.lastFailureCode ?? ''}</td>
          </tr>`,
      )}
    </table>
    <h2 style="margin-top:0.8rem">Incidents</h2>
    ${
      incidents.length === 0
        ? html`<p class="muted">none</p>`
        : html`<table data-incidents>
            ${incidents.map(
              (i) =>
                html`<tr>
                  <td>${new Date(i.detected_at).toLocaleTimeString()}</td>
                  <td class="code">${i.failure_mode}</td>
                  <td>${i.plan_id ?? ''} ${i.step_id ?? ''}</td>
                  <td>${i.resolved_at ? 'resolved' : 'open'}</td>
                </tr>`,
            )}
          </table>`
    }
  </div>`;
}
