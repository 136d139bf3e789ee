import { PLAN_LIMIT_MS } from './embedded-support.js';

/*
 * How long the fleet bench waits, from the fleet's size and the workers' claim cap rather than a fixed window, so that
 * a big row is judged on whether its plans complete, not cut short while its workers are still taking their bots.
 */

/** What sets how fast a row's fleet can join and run. */
export interface FleetShape {
  bots: number;
  workers: number;
  /** Bots a worker claims at most in one claim pass (`worker --claims-per-pass`). */
  claimsPerPass: number;
  /** How often a worker makes a claim pass (a fifth of the lease). */
  claimEveryMs: number;
  /** Logins a worker lets run at once (its JoinGate). */
  joinsAtOnce: number;
  /** How long one login may take before the worker tries it again (the connect timeout). */
  loginMs: number;
}

export interface FleetLimits {
  /** Bots the busiest worker holds (worker k holds bots k, k+W, …). */
  perWorker: number;
  /** Claim passes the busiest worker needs to take all of them; the first comes as it starts. */
  claimPasses: number;
  /** The soonest its last claim pass comes: what the claim cap alone costs the join. */
  claimBoundMs: number;
  /** How long the bench waits for every bot to join: every claim pass, and every wave of logins at its limit. */
  joinLimitMs: number;
  /** How long after their enqueue it waits for the plans to end. */
  planLimitMs: number;
}

/**
 * A worker's plans share its one event loop: at most this much of it per bot held, on top of one plan's own limit. The
 * worst CPU per bot per plan the bench has measured on this project's 2-core machine is 505 ms (300 bots in the crowd,
 * 2 workers, 2026-12-06), and a worker gets about two thirds of a core beside the other worker, the world server and
 * PostgreSQL. Since a late loop slows a step instead of failing it, an overloaded row runs long rather than failing:
 * the limit must let it.
 */
export const LOOP_SHARE_PER_BOT_MS = 750;
/** A plan's pick-up: a worker asks for its idle bots' plans every 250 ms, later while its loop runs late. */
export const QUEUE_POLL_MS = 3_000;

export function fleetLimits(shape: FleetShape): FleetLimits {
  const perWorker = Math.ceil(shape.bots / shape.workers);
  const claimPasses = Math.ceil(perWorker / shape.claimsPerPass);
  const claimBoundMs = (claimPasses - 1) * shape.claimEveryMs;
  const loginWaves = Math.ceil(perWorker / shape.joinsAtOnce);
  return {
    perWorker,
    claimPasses,
    claimBoundMs,
    joinLimitMs: claimBoundMs + loginWaves * shape.loginMs,
    planLimitMs: PLAN_LIMIT_MS + QUEUE_POLL_MS + perWorker * LOOP_SHARE_PER_BOT_MS,
  };
}

/** The limits as the bench prints them before a row. */
export function describeLimits(shape: FleetShape, limits: FleetLimits): string {
  const s = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`);
  return (
    `each worker takes up to ${limits.perWorker} bots in ${limits.claimPasses} claim pass(es) of at most ` +
    `${shape.claimsPerPass}, one every ${s(shape.claimEveryMs)} (the last at ${s(limits.claimBoundMs)} at the ` +
    `soonest), ${shape.joinsAtOnce} logins at once of up to ${s(shape.loginMs)}: join limit ${s(limits.joinLimitMs)}; ` +
    `plan limit ${s(limits.planLimitMs)} after the enqueue (${s(PLAN_LIMIT_MS)} for a plan, ${s(QUEUE_POLL_MS)} for ` +
    `its pick-up, ${s(LOOP_SHARE_PER_BOT_MS)} of its worker's loop per bot held)`
  );
}
