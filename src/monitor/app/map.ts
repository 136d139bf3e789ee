import { html } from 'htm/preact';

const SIZE = 220;

/**
 * A top-down map of where the bot has walked (x east, z south), its place now a dot; the other bots grey dots with
 * their names.
 */
export function TrailMap({
  trail,
  others = [],
}: {
  trail: { x: number; z: number }[];
  others?: { name: string; x: number; z: number }[];
}) {
  if (trail.length === 0) return html`<p class="muted">no position yet</p>`;
  const xs = [...trail, ...others].map((p) => p.x);
  const zs = [...trail, ...others].map((p) => p.z);
  const span = Math.max(8, Math.max(...xs) - Math.min(...xs), Math.max(...zs) - Math.min(...zs)) + 4;
  const cx = (Math.max(...xs) + Math.min(...xs)) / 2;
  const cz = (Math.max(...zs) + Math.min(...zs)) / 2;
  const at = (p: { x: number; z: number }) => `${((p.x - cx) / span + 0.5) * SIZE},${((p.z - cz) / span + 0.5) * SIZE}`;
  const last = trail.at(-1)!;
  const [x, y] = at(last).split(',');
  return html`<svg width=${SIZE} height=${SIZE} data-map>
    <polyline points=${trail.map(at).join(' ')} fill="none" stroke="#65a30d" stroke-width="2" />
    ${others.map((o) => {
      const [ox, oy] = at(o).split(',');
      return html`<g data-other-bot=${o.name}
        ><circle cx=${ox} cy=${oy} r="4" fill="#6b7280" /><text x=${Number(ox) + 6} y=${oy} font-size="10"
          >${o.name}</text
        ></g
      >`;
    })}
    <circle cx=${x} cy=${y} r="5" fill="#1d4ed8" />
    <text x="4" y=${SIZE - 6} font-size="10">
      x ${last.x.toFixed(1)}, z ${last.z.toFixed(1)} (${span.toFixed(0)} blocks across)
    </text>
  </svg>`;
}
