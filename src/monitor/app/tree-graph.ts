import dagre from '@dagrejs/dagre';
import { html } from 'htm/preact';
import type { NodeState } from './model.js';

/** A tree as `GET /api/trees/<name>` gives it. */
export interface TreeShape {
  name: string;
  file: string;
  nodes: {
    path: string;
    parent: string | null;
    type: string;
    label: string;
    line: number;
    watchdogs: { kind: string; limitMs: number }[];
  }[];
}

interface Placed {
  path: string;
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
  watchdogs: TreeShape['nodes'][number]['watchdogs'];
}

interface Layout {
  width: number;
  height: number;
  nodes: Placed[];
  edges: { points: { x: number; y: number }[] }[];
}

const layouts = new WeakMap<TreeShape, Layout>();

/** dagre's top-down layout of a tree, once per shape. */
export function layoutOf(shape: TreeShape): Layout {
  const cached = layouts.get(shape);
  if (cached) return cached;
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'TB', nodesep: 16, ranksep: 36, marginx: 8, marginy: 8 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of shape.nodes) {
    graph.setNode(node.path, {
      width: Math.max(70, node.label.length * 7 + 16, node.watchdogs.length > 0 ? 260 : 0),
      height: node.watchdogs.length > 0 ? 44 : 28,
    });
    if (node.parent) graph.setEdge(node.parent, node.path);
  }
  dagre.layout(graph);
  const info = graph.graph() as { width?: number; height?: number };
  const layout: Layout = {
    width: info.width ?? 0,
    height: info.height ?? 0,
    nodes: shape.nodes.map((node) => {
      const placed = graph.node(node.path) as { x: number; y: number; width: number; height: number };
      return {
        path: node.path,
        label: node.label,
        x: placed.x,
        y: placed.y,
        width: placed.width,
        height: placed.height,
        watchdogs: node.watchdogs,
      };
    }),
    edges: graph
      .edges()
      .map((edge) => ({ points: (graph.edge(edge) as { points: { x: number; y: number }[] }).points })),
  };
  layouts.set(shape, layout);
  return layout;
}

export interface TreeGraphProps {
  shape: TreeShape;
  states: Record<string, NodeState>;
  /** When each running node began running (performance.now()), for watchdog countdowns; absent in a replay. */
  since?: Record<string, number>;
  now?: number;
  failing?: { nodePath?: string; code?: string };
}

/** The tree drawn as a graph: each node coloured by its state, watchdog limits counting down on running nodes. */
export function TreeGraph({ shape, states, since, now, failing }: TreeGraphProps) {
  const layout = layoutOf(shape);
  const timer = (node: Placed): string => {
    const started = since?.[node.path];
    return node.watchdogs
      .map((w) => {
        if (states[node.path] === 'running' && started !== undefined && now !== undefined)
          return `${w.kind} ${Math.max(0, (w.limitMs - (now - started)) / 1000).toFixed(1)}s`;
        return `${w.kind} ${w.limitMs / 1000}s`;
      })
      .join(' · ');
  };
  return html`<svg
    width=${layout.width}
    height=${layout.height}
    viewBox="0 0 ${layout.width} ${layout.height}"
    data-tree=${shape.name}
  >
    ${layout.edges.map((edge) => html`<polyline class="edge" points=${edge.points.map((p) => `${p.x},${p.y}`).join(' ')} />`)}
    ${layout.nodes.map((node) => {
      const state = states[node.path] ?? 'ready';
      const isFailing = failing?.nodePath === node.path;
      return html`<g
        class="node ${state}${isFailing ? ' failing' : ''}"
        data-path=${node.path}
        data-state=${state}
        transform="translate(${node.x - node.width / 2},${node.y - node.height / 2})"
      >
        <title>${node.path}${isFailing && failing?.code ? ` — failed: ${failing.code}` : ''}</title>
        <rect width=${node.width} height=${node.height} />
        <text x=${node.width / 2} y=${node.watchdogs.length > 0 ? 12 : node.height / 2}>${node.label}</text>
        ${node.watchdogs.length > 0 ? html`<text class="timer" x=${node.width / 2} y=${node.height - 11}>${timer(node)}</text>` : null}
        ${isFailing && failing?.code ? html`<text class="code" x=${node.width / 2} y=${node.height + 10}>${failing.code}</text>` : null}
      </g>`;
    })}
  </svg>`;
}
