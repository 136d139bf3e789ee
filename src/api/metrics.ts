import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ExecutorEvent } from '../executor/events.js';

export interface ExecutorMetrics {
  registry: Registry;
  observe(event: ExecutorEvent): void;
  /** Reads the event stream's client counts when /metrics is scraped. */
  watchEventClients(read: () => { connected: number; dropped: number }): void;
}

/** Prometheus series fed by executor events: what `/metrics` exposes. */
export function createExecutorMetrics(): ExecutorMetrics {
  const registry = new Registry();
  const ttfa = new Histogram({
    name: 'verbtree_step_ttfa_ms',
    help: 'Time from step dispatch to its first actuator command, in milliseconds',
    labelNames: ['verb'],
    buckets: [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000],
    registers: [registry],
  });
  const outcomes = new Counter({
    name: 'verbtree_step_outcomes_total',
    help: 'Steps ended, by verb and outcome code (ok for verified success)',
    labelNames: ['verb', 'code'],
    registers: [registry],
  });
  const stuck = new Counter({
    name: 'verbtree_stuck_detections_total',
    help: 'Stuck detector trips, by detector and failure code',
    labelNames: ['detector', 'code'],
    registers: [registry],
  });
  const repairs = new Counter({
    name: 'verbtree_repairs_total',
    help: 'Local repairs applied, by strategy',
    labelNames: ['strategy'],
    registers: [registry],
  });
  const plans = new Counter({
    name: 'verbtree_plans_total',
    help: 'Plans ended, by result',
    labelNames: ['result'],
    registers: [registry],
  });
  const incidents = new Counter({
    name: 'verbtree_incidents_total',
    help: 'Incidents the executor raised, by kind',
    labelNames: ['kind'],
    registers: [registry],
  });
  let eventClients = () => ({ connected: 0, dropped: 0 });
  new Gauge({
    name: 'verbtree_event_clients',
    help: 'WebSocket clients on /api/events',
    registers: [registry],
    collect() {
      this.set(eventClients().connected);
    },
  });
  new Gauge({
    name: 'verbtree_event_clients_dropped',
    help: 'WebSocket clients dropped for leaving too much of the event stream unread, since start',
    registers: [registry],
    collect() {
      this.set(eventClients().dropped);
    },
  });
  return {
    registry,
    watchEventClients(read) {
      eventClients = read;
    },
    observe(event) {
      switch (event.type) {
        case 'step.firstAction':
          ttfa.observe({ verb: event.verb }, event.ttfaMs);
          return;
        case 'step.ended':
          outcomes.inc({ verb: event.verb, code: event.outcome.ok ? 'ok' : event.outcome.code });
          return;
        case 'step.stuck':
          stuck.inc({ detector: event.detector, code: event.code });
          return;
        case 'step.repair':
          // A defence's strategy names the mobs it met ("defence: dig_in from 3 zombies"): one label for them all.
          repairs.inc({ strategy: event.strategy.startsWith('defence: ') ? 'defence' : event.strategy });
          return;
        case 'plan.ended':
          plans.inc({ result: event.result.ok ? 'ok' : (event.result.code ?? 'failed') });
          return;
        case 'plan.rejected':
          plans.inc({ result: 'rejected' });
          return;
        case 'incident':
          incidents.inc({ kind: event.kind });
          return;
        default:
          return;
      }
    },
  };
}
